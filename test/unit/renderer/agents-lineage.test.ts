import { describe, expect, it } from 'vitest';
import { createAgentsStore } from '../../../renderer/src/features/agents/agents-store';
import type { Artifact, LineageNode } from '../../../shared/contract';
import { fakeClient } from './fixtures';

const usage = { inputTokens: 0, outputTokens: 0, cost: 0 };
const node = (runId: string, status: LineageNode['status']): LineageNode => ({
  id: `n-${runId}`,
  runId,
  parentRunId: null,
  parentAgentId: null,
  parentActionId: null,
  role: 'helper',
  status,
  depth: 0,
  grantedTools: [],
  createdAt: '2026-11-28T08:00:00.000Z',
  completedAt: null,
  usage,
  rolledUp: usage,
});

describe('reading the agent trees of a conversation’s runs', () => {
  it('asks no more of a run read after it and its whole tree ended; asks again of one still working', async () => {
    const trees: Record<string, LineageNode[]> = { plain: [], agent: [node('agent', 'completed')], busy: [] };
    const fake = fakeClient({
      'runs.lineage': async ({ runId }) => ({ runId, nodes: trees[runId] ?? [], total: usage }),
      'artifacts.list': async () => ({ artifacts: [] }),
    });
    const store = createAgentsStore(fake.client);
    const lineageReads = () => fake.calls.filter((call) => call.channel === 'runs.lineage').length;

    // A plain run and an agent run that are over, and a run going on: each read once.
    await store.getState().readRun('plain', true);
    await store.getState().readRun('agent', true);
    await store.getState().readRun('busy', false);
    expect(lineageReads()).toBe(3);
    // Another run ended: the window reads the conversation's runs again. Only the one going on is asked.
    await store.getState().readRun('plain', true);
    await store.getState().readRun('agent', true);
    await store.getState().readRun('busy', false);
    expect(lineageReads()).toBe(4);
    expect(store.getState().lineage.agent).toEqual([node('agent', 'completed')]);
  });

  it('reads an ended run again while a run in its tree is still working', async () => {
    const fake = fakeClient({
      'runs.lineage': async ({ runId }) => ({ runId, nodes: [node('child', 'active')], total: usage }),
      'artifacts.list': async () => ({ artifacts: [] }),
    });
    const store = createAgentsStore(fake.client);
    await store.getState().readRun('parent', true);
    await store.getState().readRun('parent', true);
    expect(fake.calls.filter((call) => call.channel === 'runs.lineage')).toHaveLength(2);
  });

  it('keeps the tree and artifacts read as a run ended when a read asked before it is answered after it', async () => {
    const artifact: Artifact = {
      id: 'a1',
      runId: 'agent',
      agentId: 'n-agent',
      sourceRunId: null,
      checkpointId: null,
      type: 'report',
      path: null,
      content: 'Nothing is open.',
      metadata: { size: 16, hash: 'h', mimeType: 'text/plain' },
      createdAt: '2026-11-28T08:00:01.000Z',
    };
    // The host answers each read when the test says, the second before the first, as a loaded host may.
    const answers: (() => void)[] = [];
    const answered = <T>(value: T) => new Promise<T>((resolve) => answers.push(() => resolve(value)));
    let reads = 0;
    const fake = fakeClient({
      'runs.lineage': ({ runId }) =>
        answered({ runId, nodes: [node('agent', ++reads === 1 ? 'active' : 'completed')], total: usage }),
      'artifacts.list': () => answered({ artifacts: reads === 1 ? [] : [artifact] }),
    });
    const store = createAgentsStore(fake.client);
    const whileWorking = store.getState().readRun('agent', false);
    const asItEnded = store.getState().readRun('agent', true);
    const [firstTree, firstArtifacts, lastTree, lastArtifacts] = answers;
    lastTree?.();
    lastArtifacts?.();
    await asItEnded;
    firstTree?.();
    firstArtifacts?.();
    await whileWorking;
    expect(store.getState().lineage.agent).toEqual([node('agent', 'completed')]);
    expect(store.getState().artifacts.agent).toEqual([artifact]);
    // The run is over and was drawn so: it is not asked again.
    await store.getState().readRun('agent', true);
    expect(fake.calls.filter((call) => call.channel === 'runs.lineage')).toHaveLength(2);
  });
});
