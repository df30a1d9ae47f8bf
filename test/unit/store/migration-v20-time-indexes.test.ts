import { describe, expect, it } from 'vitest';
import type { Store } from '../../../electron/store/store';
import { useFixtureCopies } from '../../support/fixture-copies';

/** Copies of the frozen version-7 database (see audit-format-v7.test.ts): two runs, each in its own thread. */
const openCopy = useFixtureCopies();
const RUN_A = '15ac9123-b643-42df-9cea-592cd748e8bc';
const THREAD_A = '700e5c4c-00c1-45dc-930f-5901a326e406';
const RUN_B = 'cb9c6ea9-f9cc-4ae2-aafc-59e5e90195ec';

const keep = (store: Store, runId: string, event: string): void =>
  store.policy.audit({
    timestamp: '2026-11-27T01:00:00.000Z',
    runId,
    actionId: null,
    tool: 'mcp.files.read',
    event,
    decision: null,
    rule: null,
    reason: null,
    detail: { text: `kept for ${runId}` },
  });

describe('migration 20: runs and approvals by time, and the MCP answers kept whole', () => {
  it('adds the indexes, and deleting a conversation still takes its kept answers and leaves the rest', () => {
    const store = openCopy('deputy-v7-audit.db');
    try {
      expect(store.db.pragma('user_version', { simple: true })).toBeGreaterThanOrEqual(20);
      const indexes = store.db
        .prepare(
          "SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name IN ('runs', 'approvals', 'audit')",
        )
        .pluck()
        .all();
      expect(indexes).toEqual(
        expect.arrayContaining(['runs_by_time', 'approvals_by_time', 'audit_kept_words']),
      );

      keep(store, RUN_A, 'mcp_full_result');
      keep(store, RUN_B, 'mcp_full_result');
      keep(store, RUN_A, 'intent_analysis');
      const before = store.db.prepare('SELECT count(*) FROM audit').pluck().get() as number;
      expect(store.data.deleteThread(THREAD_A)).toBe(true);
      const left = store.db
        .prepare('SELECT run_id AS runId, event FROM audit WHERE run_id IS NOT NULL ORDER BY run_id, event')
        .all();
      expect(left).toEqual([
        { runId: RUN_A, event: 'intent_analysis' },
        { runId: RUN_A, event: 'policy_decision' },
        { runId: RUN_B, event: 'mcp_full_result' },
      ]);
      expect(store.db.prepare('SELECT count(*) FROM audit').pluck().get()).toBe(before - 1);
    } finally {
      store.close();
    }
  });
});
