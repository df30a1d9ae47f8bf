import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { COMPLETE_TASK } from '../../electron/engine/completion';
import { ModelError, type ModelRequest, type ModelStreamEvent } from '../../electron/llm/model-client';
import { dataDirWithAgents } from '../support/agent-kit';
import { storeOf, until, waitForRun } from '../support/durable-kit';
import { openHost, type HostFixture } from '../support/host-fixture';
import { call, ScriptedModel } from '../support/scripted-model';
import { syntheticMailTools } from '../support/synthetic-tools';

const open: HostFixture[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const fixture of open.splice(0)) await fixture.stop().catch(() => {});
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const done = (note: string, callId: string): ModelStreamEvent[] =>
  call(COMPLETE_TASK, { result: { note } }, callId);
const SEND = { to: ['sam@x.io'], body: 'Hi Sam', intent: 'tell', confidence: 0.9 };

/** Plays the script, then waits on every further turn until the run is stopped (as Gemini's client does). */
function stallAfter(script: ScriptedModel) {
  return {
    requests: script.requests,
    async *stream(request: ModelRequest): AsyncIterable<ModelStreamEvent> {
      if (script.remaining > 0) {
        yield* script.stream(request);
        return;
      }
      await new Promise<void>((resolve) => request.signal.addEventListener('abort', () => resolve()));
      throw new ModelError('cancelled', 'Stopped.');
    },
  };
}

async function start(
  model: Parameters<typeof openHost>[0],
  dir: string,
  sent: { to: string[]; body: string }[],
) {
  const fixture = await openHost(model, { dataDir: dir, tools: syntheticMailTools(sent) });
  open.push(fixture);
  return fixture;
}

describe('a delegation tree after Deputy stops', () => {
  it('resumes the parent and its paused child; the child’s approved send happens once', async () => {
    const dir = dataDirWithAgents(
      { name: 'coordinator', tools: ['messenger', 'send_message'] },
      { name: 'messenger', tools: ['send_message'] },
    );
    dirs.push(dir);
    const sent: { to: string[]; body: string }[] = [];
    const first = await start(
      new ScriptedModel(
        call('messenger', { task: 'tell sam' }, 'p-msg'),
        call('send_message', SEND, 'c-send'),
      ),
      dir,
      sent,
    );
    const { started } = first.host.agents.start({ name: 'coordinator', inputs: { task: 'let sam know' } });
    await until(() => first.host.approvals.pending().length === 1);
    await first.stop();

    const model = new ScriptedModel(done('Sent.', 'c-done'), done('Messenger sent it.', 'p-done'));
    const second = await start(model, dir, sent);
    const [approval] = second.host.approvals.pending();
    expect(approval?.reason).toMatch(/^Coordinator → Messenger wants to /);
    await second.host.approvals.decide({ approvalId: approval?.id ?? '', decision: 'approve' });
    const parent = await waitForRun(second.host, started.threadId, started.runId);

    expect(parent.status).toBe('completed');
    expect(sent).toHaveLength(1);
    const lineage = await second.host.invoke('runs.lineage', { runId: started.runId });
    expect(lineage.nodes.map((node) => [node.role, node.status])).toEqual([
      ['coordinator', 'completed'],
      ['messenger', 'completed'],
    ]);
    const artifacts = await second.host.invoke('artifacts.list', { runId: started.runId });
    expect(artifacts.artifacts.map((artifact) => artifact.agentId)).toEqual(['messenger', 'coordinator']);
  });

  it('resumes a child that was mid-turn, under the same parent call, without starting a second child', async () => {
    const dir = dataDirWithAgents(
      { name: 'lead', tools: ['helper', 'list_tasks'] },
      { name: 'helper', tools: ['list_tasks'] },
    );
    dirs.push(dir);
    const sent: { to: string[]; body: string }[] = [];
    const script = new ScriptedModel(
      call('helper', { task: 'look' }, 'p-helper'),
      call('list_tasks', {}, 'c-list'),
    );
    const first = await start(stallAfter(script), dir, sent);
    const { started } = first.host.agents.start({ name: 'lead', inputs: { task: 'go' } });
    const store = storeOf(first.host);
    await until(() => script.remaining === 0 && script.requests.length === 2);
    await until(() => store.lineage.children(started.runId).length === 1);
    const childId = store.lineage.children(started.runId)[0]?.runId ?? '';
    await until(() => store.actions.byCall(childId, 'c-list')?.ledgerState === 'committed');
    await first.stop();

    const model = new ScriptedModel(done('Nothing open.', 'c-done'), done('Helper found nothing.', 'p-done'));
    const second = await start(model, dir, sent);
    const parent = await waitForRun(second.host, started.threadId, started.runId);

    expect(parent.status).toBe('completed');
    const resumedStore = storeOf(second.host);
    expect(resumedStore.lineage.children(started.runId).map((row) => row.runId)).toEqual([childId]);
    expect(resumedStore.runs.get(childId)).toMatchObject({ status: 'completed', resumed: true });
    // The child's list_tasks was committed before the stop: its result is replayed, the tool is not asked again.
    expect(model.requests[0]?.messages.at(-1)?.parts[0]).toMatchObject({ kind: 'result', callId: 'c-list' });
    expect(model.requests).toHaveLength(2);
  });
});
