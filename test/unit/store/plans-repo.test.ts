import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../electron/store/database';
import type { StoredPlan } from '../../../electron/store/plans-repo';
import { Store } from '../../../electron/store/store';

const NOW = '2026-11-26T09:00:00.000Z';

function storeWithRuns(...runIds: string[]): Store {
  const store = new Store(openDatabase(':memory:'));
  store.threads.create('t', 'T', NOW);
  for (const id of runIds) store.runs.create({ id, threadId: 't', model: 'm', prompt: 'p' }, NOW);
  return store;
}

const plan = (id: string, runId: string): StoredPlan => ({
  id,
  runId,
  threadId: 't',
  goal: 'Tell Alice',
  status: 'planned',
  currentStep: 0,
  requiresApproval: false,
  approvedAt: null,
  createdAt: NOW,
  updatedAt: NOW,
  steps: [],
});

describe('the plans of a run', () => {
  it('finds a plan saved after the run was seen to have none (the loop asks after every call)', () => {
    const store = storeWithRuns('r1');
    expect(store.plans.ofRun('r1')).toBeNull();
    expect(store.plans.ofRun('r1')).toBeNull();
    store.plans.save(plan('p1', 'r1'));
    expect(store.plans.ofRun('r1')?.id).toBe('p1');
  });

  it('finds a plan attached to a run that had none, and no longer finds it on the run it left', () => {
    const store = storeWithRuns('r1', 'r2');
    store.plans.save(plan('p1', 'r1'));
    expect(store.plans.ofRun('r2')).toBeNull();
    store.plans.attach('p1', 'r2', NOW);
    expect(store.plans.ofRun('r2')?.id).toBe('p1');
    expect(store.plans.ofRun('r1')).toBeNull();
  });
});
