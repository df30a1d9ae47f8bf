import { redactedJson } from '../vault/redactor';
import type { RunEvent } from '../../shared/contract';
import type { Db } from './database';
import { parseStoredJson } from './json';

/** The append-only event log. Text deltas are not stored: the finished message is. */
export class EventsRepo {
  private readonly insertEvent;
  private readonly selectByRun;

  constructor(db: Db) {
    this.insertEvent = db.prepare(
      'INSERT INTO events (run_id, thread_id, event_type, timestamp, payload) VALUES (?, ?, ?, ?, ?)',
    );
    this.selectByRun = db.prepare<[string], { payload: string }>(
      'SELECT payload FROM events WHERE run_id = ? ORDER BY id',
    );
  }

  append(event: RunEvent, now: string): void {
    this.insertEvent.run(event.runId, event.threadId, event.type, now, redactedJson(event));
  }

  byRun(runId: string): unknown[] {
    return this.selectByRun.all(runId).map((row) => parseStoredJson(row.payload));
  }
}
