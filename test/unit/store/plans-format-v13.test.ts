import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { planView } from '../../../electron/engine/plans/plan-progress';
import { Store } from '../../../electron/store/store';

/**
 * A frozen database as Deputy left it at schema version 13 (made once, never rewritten): a run that proposed a
 * two-step plan (a look-up, then a mail to Alice), paused on the mail, and finished once the person approved
 * the plan. Its plans, plan_steps and plan_step_calls rows are a disk format.
 */
const FIXTURE = join(import.meta.dirname, '..', '..', 'fixtures', 'databases', 'deputy-v13-plans.db');
const PLAN_ID = '5f5c01cd-c11e-4a55-a298-bb65b714b340';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('plans written at version 13', () => {
  it('still read: the plan, its steps, the scope the person approved, and the actions of each step', () => {
    const before = readFileSync(FIXTURE);
    const dir = mkdtempSync(join(tmpdir(), 'deputy-v11-'));
    dirs.push(dir);
    copyFileSync(FIXTURE, join(dir, 'deputy.db'));
    const store = Store.open(join(dir, 'deputy.db'));
    try {
      const plan = store.plans.get(PLAN_ID);
      expect(plan).toMatchObject({
        goal: 'Tell Alice what the lookup found',
        status: 'completed',
        approvedAt: '2026-11-23T10:00:00.000Z',
      });
      expect(plan?.steps.map((step) => [step.id, step.kind, step.status, step.dependsOn])).toEqual([
        ['find', 'tool', 'done', []],
        ['send', 'tool', 'done', ['find']],
      ]);
      expect(plan?.steps[1]?.approved).toEqual({
        tool: 'send_message',
        fixed: { to: ['alice@example.com'] },
      });
      expect(plan?.steps[1]).toMatchObject({ needsApproval: true, fixed: ['to'] });
      const view = planView({ store }, plan ?? (null as never));
      expect(view.steps.map((step) => step.actionIds.length)).toEqual([1, 1]);
      const sent = store.actions.get(view.steps[1]?.actionIds[0] ?? '');
      expect(sent).toMatchObject({ tool: 'send_message' });
      expect(store.plans.ofRun(plan?.runId ?? '')?.id).toBe(PLAN_ID);
      expect(store.plans.byThread(plan?.threadId ?? '').map((p) => p.id)).toEqual([PLAN_ID]);
    } finally {
      store.close();
    }
    expect(readFileSync(FIXTURE).equals(before)).toBe(true);
  });
});
