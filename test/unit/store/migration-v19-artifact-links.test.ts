import { describe, expect, it } from 'vitest';
import type { Store } from '../../../electron/store/store';
import { useFixtureCopies, useTempStores } from '../../support/fixture-copies';

/** Copies of the frozen version-12 database (see agents-format-v12.test.ts): two artifacts, each from a run. */
const openCopy = useFixtureCopies();
const newStore = useTempStores();
const LEAD = '5d7176c2-6441-404a-95e5-fcd9b054981e';
const HELPER = 'aa2b6ec3-2b02-46c9-a1a8-cada5738f04e';

const planOf = (store: Store, sql: string): string[] =>
  (store.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all('x') as { detail: string }[]).map((row) => row.detail);

/** Lookup tables whose rows are never deleted: a link to them needs no index to be kept. */
const NEVER_DELETED = new Set(['journal_types']);

describe("migration 19: the artifacts' links", () => {
  it('indexes them, so deleting a checkpoint or a run no longer reads every artifact, and still unlinks', () => {
    const store = openCopy('deputy-v12-agents.db');
    try {
      expect(store.db.pragma('user_version', { simple: true })).toBeGreaterThanOrEqual(19);
      for (const sql of ['DELETE FROM checkpoints WHERE id = ?', 'DELETE FROM runs WHERE id = ?']) {
        const plan = planOf(store, sql);
        expect(plan.join('; ')).not.toMatch(/SCAN artifacts/);
        expect(plan.join('; ')).toMatch(/artifacts USING (COVERING )?INDEX artifacts_by_/);
      }
      expect(
        planOf(
          store,
          'SELECT checkpoint_id FROM artifacts WHERE checkpoint_id IS NOT NULL AND ? IS NOT NULL',
        ),
      ).toEqual([expect.stringContaining('COVERING INDEX artifacts_by_checkpoint')]);

      // The helper's run goes: the artifact it was the source of stays with the lead, its link set to NULL.
      store.db.prepare('DELETE FROM runs WHERE id = ?').run(HELPER);
      const links = store.db
        .prepare('SELECT run_id AS runId, source_run_id AS sourceRunId FROM artifacts ORDER BY source_run_id')
        .all();
      expect(links).toEqual([
        { runId: LEAD, sourceRunId: null },
        { runId: LEAD, sourceRunId: LEAD },
      ]);
    } finally {
      store.close();
    }
  });

  it('leaves no link to a row that can be deleted without an index that starts with it', () => {
    const store = newStore();
    try {
      const tables = store.db
        .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL%'")
        .pluck()
        .all() as string[];
      const unindexed: string[] = [];
      for (const table of tables) {
        const links = store.db
          .prepare<[string], { table: string; from: string; seq: number }>(
            'SELECT "table", "from", seq FROM pragma_foreign_key_list(?)',
          )
          .all(table)
          .filter((link) => link.seq === 0 && !NEVER_DELETED.has(link.table));
        const leading = store.db
          .prepare<[string], string>(
            `SELECT ii.name FROM pragma_index_list(?) AS il, pragma_index_info(il.name) AS ii WHERE ii.seqno = 0`,
          )
          .pluck()
          .all(table);
        const primaryKey = store.db
          .prepare<[string], string>('SELECT name FROM pragma_table_info(?) WHERE pk = 1')
          .pluck()
          .all(table);
        for (const link of links) {
          if (!leading.includes(link.from) && !primaryKey.includes(link.from)) {
            unindexed.push(`${table}.${link.from} → ${link.table}`);
          }
        }
      }
      expect(unindexed).toEqual([]);
    } finally {
      store.close();
    }
  });
});
