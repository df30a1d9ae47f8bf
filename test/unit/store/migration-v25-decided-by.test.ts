import { describe, expect, it } from 'vitest';
import type { StoredApproval } from '../../../electron/store/approvals-repo';
import { useFixtureCopies } from '../../support/fixture-copies';
import { storeWithRun } from '../../support/memory-store';
import { storedApproval } from '../../support/stored-approval';

/** Copies of the frozen version-23 database (see durable-runs-v23.test.ts): two approvals turned down. */
const openCopy = useFixtureCopies();
const NOW = '2026-11-28T12:00:00.000Z';

const asked = (id: string): StoredApproval =>
  storedApproval({ id, runId: 'r', threadId: 't', actionId: id, createdAt: NOW, expiresAt: NOW });

describe('migration 25: who settled an approval', () => {
  it('leaves the approvals settled before it as they read, saying no one', () => {
    const store = openCopy('deputy-v23-decided-approvals.db');
    try {
      expect(store.db.pragma('user_version', { simple: true })).toBeGreaterThanOrEqual(25);
      const approvals = store.approvals.all();
      expect(approvals.map((approval) => approval.decisionNote).sort()).toEqual([
        'Not in that channel',
        'superseded: the user sent a new message instead of deciding',
      ]);
      for (const approval of approvals) expect(approval).not.toHaveProperty('decidedBy');
    } finally {
      store.close();
    }
  });

  it('keeps who settled each approval, forgets it when one is asked again, and reads a value it does not know as no one', () => {
    const store = storeWithRun(NOW);
    try {
      for (const id of ['mine', 'deputys', 'odd']) {
        store.actions.create(
          {
            id,
            runId: 'r',
            threadId: 't',
            callId: `call-${id}`,
            tool: 'post_note',
            args: {},
            state: 'planned',
          },
          NOW,
        );
        store.approvals.create(asked(id));
      }
      store.approvals.claim('mine', 'rejected', NOW, 'Cancelled: you cancelled the plan.', 'person');
      store.approvals.claim('deputys', 'expired', NOW, null, 'deputy');
      // Settled twice: the first decision stands, who took it with it.
      expect(store.approvals.claim('mine', 'approved', NOW, null, 'deputy')).toBe(false);
      store.db
        .prepare(`UPDATE approvals SET status = 'rejected', decided_by = 'robot' WHERE id = 'odd'`)
        .run();
      expect(store.approvals.get('mine')).toMatchObject({ status: 'rejected', decidedBy: 'person' });
      expect(store.approvals.get('deputys')).toMatchObject({ status: 'expired', decidedBy: 'deputy' });
      expect(store.approvals.get('odd')).not.toHaveProperty('decidedBy');
      expect(store.approvals.reopen({ ...asked('deputys'), rule: 'resume.outcome_unknown' })).toBe(true);
      expect(store.approvals.get('deputys')).not.toHaveProperty('decidedBy');
    } finally {
      store.close();
    }
  });
});
