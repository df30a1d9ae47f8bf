import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../electron/store/database';
import { migrations } from '../../../electron/store/migrations';
import { Store } from '../../../electron/store/store';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const v4 = migrations.filter((migration) => migration.version <= 4);

/**
 * Frozen: a database as Deputy 4 left it, two threads with a run each, and of the first a message, an action
 * with its approval, events and a checkpoint. Never edit it; a later format gets its own seed.
 */
const VERSION_4_ROWS = `
  INSERT INTO threads (id, title, created_at, updated_at) VALUES
    ('t1', 'Passport', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z'),
    ('t2', 'Lunch', '2026-01-02T00:00:00Z', '2026-01-02T00:00:00Z');
  INSERT INTO runs (id, thread_id, status, model, prompt, created_at, updated_at) VALUES
    ('r1', 't1', 'awaiting_confirmation', 'm', 'Add a passport task', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z'),
    ('r2', 't2', 'completed', 'm', 'Lunch?', '2026-01-02T00:00:00Z', '2026-01-02T00:00:00Z');
  INSERT INTO messages (id, thread_id, run_id, role, text, created_at) VALUES
    ('m1', 't1', 'r1', 'user', 'Add a passport task', '2026-01-01T00:00:00Z'),
    ('m2', 't2', 'r2', 'user', 'Lunch?', '2026-01-02T00:00:00Z');
  INSERT INTO actions (id, run_id, thread_id, call_id, tool, args_json, state, created_at, updated_at) VALUES
    ('a1', 'r1', 't1', 'c1', 'add_task', '{}', 'awaiting_confirmation', 'n', 'n');
  INSERT INTO approvals (id, run_id, thread_id, action_id, tool, args_json, fingerprint, status, level, reason,
      rule, risk, preview_json, preview_text, created_at, expires_at)
    VALUES ('p1', 'r1', 't1', 'a1', 'add_task', '{}', 'f', 'pending', 'confirm', 'why', 'rule', 'low', '{}', 'x', 'n', 'z');
  INSERT INTO events (run_id, thread_id, event_type, timestamp, payload, kind) VALUES
    ('r1', 't1', 'status', 'n', '{}', 'stream'), ('r1', 't1', 'turn_start', 'n', '{}', 'runtime'),
    ('r2', 't2', 'status', 'n', '{}', 'stream');
  INSERT INTO checkpoints (id, thread_id, run_id, step, timestamp, kind, state_blob) VALUES
    ('k1', 't1', 'r1', 0, 'n', 'snapshot', '{}');
`;

describe('migration 5 (indexes for deleting conversations)', () => {
  it('brings a version 4 database up, and deleting one of its threads takes all of that thread and nothing else', () => {
    const dir = mkdtempSync(join(tmpdir(), 'deputy-v5-'));
    dirs.push(dir);
    const file = join(dir, 'deputy.db');
    const old = openDatabase(file, v4);
    old.exec(VERSION_4_ROWS);
    old.close();

    const store = Store.open(file);
    const { db } = store;
    expect(db.pragma('user_version', { simple: true })).toBeGreaterThanOrEqual(5);
    expect(db.pragma('foreign_key_check')).toEqual([]);
    const indexes = db.prepare("SELECT name FROM sqlite_master WHERE type = 'index'").pluck().all();
    expect(indexes).toEqual(expect.arrayContaining(['messages_by_run', 'approvals_by_thread']));
    expect(store.data.counts()).toEqual({
      threads: 2,
      messages: 2,
      runs: 2,
      actions: 1,
      approvals: 1,
      events: 3,
      checkpoints: 1,
    });

    expect(store.data.deleteThread('t1')).toBe(true);
    expect(store.data.counts()).toEqual({
      threads: 1,
      messages: 1,
      runs: 1,
      actions: 0,
      approvals: 0,
      events: 1,
      checkpoints: 0,
    });
    expect(store.threads.get('t2')).toMatchObject({ title: 'Lunch' });
    expect(store.data.deleteThread('t1')).toBe(false);
    store.close();
  });

  it('reads the deletion through the new indexes, not by scanning', () => {
    const store = Store.open(':memory:');
    const plan = (sql: string): string =>
      (store.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[])
        .map((row) => row.detail)
        .join('; ');
    expect(plan("SELECT 1 FROM messages WHERE run_id = 'r'")).toContain('messages_by_run');
    expect(plan("SELECT 1 FROM approvals WHERE thread_id = 't'")).toContain('approvals_by_thread');
    store.close();
  });
});
