import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { migrate, openDatabase, type Db } from '../../../electron/store/database';
import { migrations } from '../../../electron/store/migrations';
import { Store } from '../../../electron/store/store';

const dirs: string[] = [];
function tempFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'deputy-v4-'));
  dirs.push(dir);
  return join(dir, 'deputy.db');
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const v3 = migrations.filter((migration) => migration.version <= 3);

/** A database as Deputy left it at version 3: one thread, one run, three actions, one pending approval. */
function seedVersion3(file: string): void {
  const db = openDatabase(file, v3);
  expect(db.pragma('user_version', { simple: true })).toBe(3);
  db.exec(`
    INSERT INTO threads (id, title, created_at, updated_at) VALUES ('t', 'Thread', 'n', 'n');
    INSERT INTO runs (id, thread_id, status, model, prompt, created_at, updated_at)
      VALUES ('r', 't', 'awaiting_confirmation', 'm', 'p', 'n', 'n');
    INSERT INTO actions (id, run_id, thread_id, call_id, tool, args_json, state, result_json, fingerprint,
        has_side_effects, is_external, policy_decision, policy_rule, policy_reason, created_at, updated_at)
      VALUES
      ('a1', 'r', 't', 'c1', 'gmail_send', '{"to":"x"}', 'executing', NULL, 'f1', 1, 1, 'allow', 'rule', 'why', '2026-01-01', 'n'),
      ('a2', 'r', 't', 'c2', 'add_task', '{}', 'completed', '{"ok":true}', 'f2', 1, 0, NULL, NULL, NULL, '2026-01-02', 'n'),
      ('a3', 'r', 't', 'c3', 'slack_send', '{"text":"hi"}', 'awaiting_confirmation', NULL, 'f3', 1, 1, NULL, NULL, NULL, '2026-01-03', 'n');
    INSERT INTO approvals (id, run_id, thread_id, action_id, tool, args_json, fingerprint, status, level, reason,
        rule, risk, preview_json, preview_text, created_at, expires_at)
      VALUES ('p', 'r', 't', 'a3', 'slack_send', '{"text":"hi"}', 'f3', 'pending', 'confirm', 'why', 'rule', 'low',
        '{}', 'hi', 'n', 'z');
    INSERT INTO events (run_id, thread_id, event_type, timestamp, payload) VALUES ('r', 't', 'status', 'n', '{}');
  `);
  db.close();
}

const names = (db: Db, type: string, table: string): unknown[] =>
  db
    .prepare('SELECT name FROM sqlite_master WHERE type = ? AND tbl_name = ? ORDER BY name')
    .pluck()
    .all(type, table);

describe('migration 4 (durable runs)', () => {
  it('moves a version 3 database to ledger states without losing actions or approvals', () => {
    const file = tempFile();
    seedVersion3(file);
    const db = openDatabase(file);

    expect(db.pragma('user_version', { simple: true })).toBeGreaterThanOrEqual(4);
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.pragma('foreign_key_check')).toEqual([]);
    expect(db.prepare('SELECT id, state, attempts, idempotency_key FROM actions ORDER BY seq').all()).toEqual(
      [
        { id: 'a1', state: 'started', attempts: 0, idempotency_key: null },
        { id: 'a2', state: 'committed', attempts: 0, idempotency_key: null },
        { id: 'a3', state: 'awaiting_confirmation', attempts: 0, idempotency_key: null },
      ],
    );
    expect(db.prepare("SELECT action_id, status FROM approvals WHERE id = 'p'").get()).toEqual({
      action_id: 'a3',
      status: 'pending',
    });
    // Migration 4 rebuilt the table with its indexes; the one by time went later (migration 18).
    expect(names(db, 'index', 'actions')).toEqual(expect.arrayContaining(['actions_by_thread']));
    // The old CHECK is gone and the new one holds: the old words are refused, the ledger's are accepted.
    expect(() => db.prepare("UPDATE actions SET state = 'executing' WHERE id = 'a1'").run()).toThrow(/CHECK/);
    db.prepare("UPDATE actions SET state = 'unknown' WHERE id = 'a1'").run();

    const store = new Store(db);
    const kept = store.actions.get('a1');
    expect(kept).toMatchObject({
      args: { to: 'x' },
      state: 'awaiting_confirmation',
      ledgerState: 'unknown',
      policy: { decision: 'allow', rule: 'rule', reason: 'why' },
    });
    expect(store.actions.get('a2')).toMatchObject({
      state: 'completed',
      ledgerState: 'committed',
      result: { ok: true },
    });
    expect(store.runs.get('r')).toMatchObject({ recovered: false, resumed: false });
    expect(db.prepare("SELECT agent_id FROM runs WHERE id = 'r'").pluck().get()).toBe('deputy');
    expect(store.events.byRun('r')).toEqual([{}]);

    // The approval's reference now points at the rebuilt table: deleting its action cascades to it.
    db.prepare("DELETE FROM actions WHERE id = 'a3'").run();
    expect(db.prepare("SELECT count(*) FROM approvals WHERE id = 'p'").pluck().get()).toBe(0);
    // New rows get fresh sequence numbers after the copied ones, so thread order is kept.
    store.actions.create(
      { id: 'a4', runId: 'r', threadId: 't', callId: 'c4', tool: 'add_task', args: {}, state: 'planned' },
      'n',
    );
    expect(db.prepare("SELECT seq FROM actions WHERE id = 'a4'").pluck().get()).toBe(4);
    db.close();
  });

  it('rolls back a foreign-keys-off migration that leaves dangling rows, and turns foreign keys back on', () => {
    const db = openDatabase(':memory:', []);
    migrate(db, [
      {
        version: 1,
        name: 'parents',
        sql: 'CREATE TABLE p (id TEXT PRIMARY KEY); CREATE TABLE c (p TEXT REFERENCES p (id))',
      },
    ]);
    const orphaning = [
      { version: 1, name: 'parents', sql: '' },
      {
        version: 2,
        name: 'orphan',
        foreignKeysOff: true as const,
        sql: "INSERT INTO c (p) VALUES ('missing')",
      },
    ];
    expect(() => migrate(db, orphaning)).toThrow(
      /Migration 2 \(orphan\) would leave 1 row\(s\) pointing at missing rows/,
    );
    expect(db.pragma('user_version', { simple: true })).toBe(1);
    expect(db.prepare('SELECT count(*) FROM c').pluck().get()).toBe(0);
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
  });

  it('refuses to turn foreign keys off inside an open transaction', () => {
    const db = openDatabase(':memory:', []);
    const attempt = db.transaction(() =>
      migrate(db, [{ version: 1, name: 'rebuild', foreignKeysOff: true, sql: 'CREATE TABLE a (x INTEGER)' }]),
    );
    expect(() => attempt()).toThrow(/must not run inside a transaction/);
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
  });
});
