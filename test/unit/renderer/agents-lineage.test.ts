import { describe, expect, it } from 'vitest';
import { createAgentsStore } from '../../../renderer/src/features/agents/agents-store';
import type { LineageNode } from '../../../shared/contract';
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
});
