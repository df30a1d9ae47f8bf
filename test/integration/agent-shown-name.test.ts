import { afterEach, describe, expect, it } from 'vitest';
import { dataDirWithAgents } from '../support/agent-kit';
import { waitForRun } from '../support/durable-kit';
import { openHost, type HostFixture } from '../support/host-fixture';
import { call, ScriptedModel } from '../support/scripted-model';

let fixture: HostFixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

describe('an agent with no display name', () => {
  it('is known by its name in words, in the list and in the title of the conversation it starts', async () => {
    const dataDir = dataDirWithAgents(
      { name: 'triage_inbox', tools: ['list_tasks'] },
      { name: 'helper', displayName: 'Task helper', tools: ['list_tasks'] },
    );
    fixture = await openHost(new ScriptedModel(call('complete_task', { result: { note: 'All clear.' } })), {
      dataDir,
    });
    const { host } = fixture;
    const { agents } = await host.invoke('agents.list', {});
    const shown = Object.fromEntries(agents.map((agent) => [agent.name, agent.displayName]));
    expect(shown).toMatchObject({ triage_inbox: 'Triage inbox', helper: 'Task helper' });

    const { runId, threadId } = await host.invoke('agents.run', {
      name: 'triage_inbox',
      inputs: { task: 'look' },
    });
    expect((await waitForRun(host, threadId, runId)).status).toBe('completed');
    const { threads } = await host.invoke('threads.list', {});
    expect(threads.find((thread) => thread.id === threadId)?.title).toBe('Triage inbox');
  });
});
