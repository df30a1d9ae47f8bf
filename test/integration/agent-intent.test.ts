import { afterEach, describe, expect, it } from 'vitest';
import { dataDirWithAgents } from '../support/agent-kit';
import { openHost, type HostFixture } from '../support/host-fixture';
import { call, say, ScriptedModel } from '../support/scripted-model';

let fixture: HostFixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

const unsure = {
  intent: 'count tasks',
  confidence: 0.3,
  entities: [],
  impliedNeeds: [],
  clarificationNeeded: true,
  clarificationQuestions: ['Which list do you mean, work or home?'],
  assumptions: [],
};

describe('intent check in a child run', () => {
  it('a child that must ask is not reported as done: its parent is told the question, to ask the person', async () => {
    const model = new ScriptedModel(
      call('delegate_to_agent', { agent: 'helper', task: 'count my tasks' }, 'chat-delegate'),
      call('state_intent', unsure, 'child-intent'),
      say('The helper finished.'),
    );
    fixture = await openHost(model, {
      dataDir: dataDirWithAgents({ name: 'helper', tools: ['list_tasks'] }),
    });
    const response = await fixture.host.runToEnd({ prompt: 'Ask the helper how many tasks I have' });
    const lineage = await fixture.host.invoke('runs.lineage', { runId: response.runId });
    const toParent = JSON.stringify(model.requests[2]?.messages.at(-1));
    // The child did not do its task: it asked. The parent must not read that as success.
    expect(lineage.nodes[0]?.status).toBe('failed');
    expect(toParent).toContain('agent_needs_clarification');
    expect(toParent).toContain('Which list do you mean, work or home?');
  });
});
