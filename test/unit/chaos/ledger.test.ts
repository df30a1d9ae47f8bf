import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../../electron/store/database';
import { EventsRepo } from '../../../electron/store/events-repo';
import { databasePath, readLedger, readReaskedTurns } from '../../chaos/ledger';

let dataDir = '';
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

/** A real, migrated database with one run of two side-effect calls, as the host would leave it. */
function seededDatabase(): Db {
  dataDir = mkdtempSync(join(tmpdir(), 'chaos-ledger-'));
  const db = openDatabase(databasePath(dataDir));
  const now = '2026-11-22T00:00:00.000Z';
  db.prepare('INSERT INTO threads (id, title, created_at, updated_at) VALUES (?, ?, ?, ?)').run(
    't1',
    't',
    now,
    now,
  );
  db.prepare(
    `INSERT INTO runs (id, thread_id, status, model, prompt, error_code, error_message, created_at, updated_at)
     VALUES (?, 't1', ?, 'm', ?, ?, ?, ?, ?)`,
  ).run('r1', 'awaiting_confirmation', 'chaos run 1', null, null, now, now);
  const action = db.prepare(
    `INSERT INTO actions (id, run_id, thread_id, call_id, tool, args_json, state, created_at, updated_at)
     VALUES (?, 'r1', 't1', ?, ?, '{}', ?, ?, ?)`,
  );
  action.run('a1', 'c1', 'gmail_send', 'committed', now, now);
  action.run('a2', 'c2', 'slack_send', 'unknown', now, now);
  action.run('a3', 'c3', 'gmail_search', 'committed', now, now);
  db.prepare(
    `INSERT INTO approvals (id, run_id, thread_id, action_id, tool, args_json, fingerprint, status, level, reason,
       rule, risk, preview_json, preview_text, created_at, expires_at)
     VALUES ('p1', 'r1', 't1', 'a2', 'slack_send', '{}', 'f', 'pending', 'confirm', 'r', 'r', 'high', '{}', '', ?, ?)`,
  ).run(now, now);
  return db;
}

const event = (db: Db, type: string, turn: number): void => {
  db.prepare(
    `INSERT INTO events (run_id, thread_id, event_type, timestamp, payload) VALUES ('r1', 't1', ?, '', ?)`,
  ).run(type, JSON.stringify({ type, turn }));
};

describe('the chaos ledger reader', () => {
  it('reads runs, the side-effect actions and pending approvals from the host’s database', () => {
    seededDatabase().close();
    const ledger = readLedger(dataDir, ['gmail_send', 'slack_send']);
    expect(ledger.schemaVersion).toBeGreaterThanOrEqual(4);
    expect(ledger.runs).toEqual([
      {
        id: 'r1',
        prompt: 'chaos run 1',
        status: 'awaiting_confirmation',
        errorCode: null,
        errorMessage: null,
      },
    ]);
    expect(ledger.actions.map((action) => `${action.tool}:${action.state}`)).toEqual([
      'gmail_send:committed',
      'slack_send:unknown',
    ]);
    expect([...ledger.runsWithPendingApproval]).toEqual(['r1']);
  });

  it('finds a turn started again after its answer was logged, not one cut off before', () => {
    const db = seededDatabase();
    event(db, 'turn_start', 1);
    event(db, 'turn_start', 1); // killed mid-answer: asking again is right
    event(db, 'turn_end', 1);
    event(db, 'turn_start', 2);
    event(db, 'turn_end', 2);
    event(db, 'turn_start', 2); // the answer was logged: this one should not happen
    db.close();
    expect(readReaskedTurns(dataDir)).toEqual([{ runId: 'r1', turn: 2 }]);
  });

  it('reads the journal after the old events table, as one log', () => {
    const db = seededDatabase();
    event(db, 'turn_start', 1);
    event(db, 'turn_end', 1);
    const journal = new EventsRepo(db);
    const logged = (type: 'turn_start' | 'turn_end', turn: number): void =>
      journal.appendRuntime({
        type,
        runId: 'r1',
        threadId: 't1',
        agentId: 'deputy',
        turn,
        timestamp: '2026-11-22T00:00:01.000Z',
        payload: {},
      });
    logged('turn_start', 2); // resumed after an upgrade: the turn cut off before is asked again, rightly
    logged('turn_end', 2);
    logged('turn_start', 1); // its answer is in the old table: this one should not happen
    db.close();
    expect(readReaskedTurns(dataDir)).toEqual([{ runId: 'r1', turn: 1 }]);
  });
});
