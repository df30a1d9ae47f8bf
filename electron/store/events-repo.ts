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

  /** `payload` is the event's JSON when the caller has already redacted it; otherwise it is made here. */
  append(event: RunEvent, now: string, payload: string = redactedJson(event)): void {
    this.insertEvent.run(event.runId, event.threadId, event.type, now, payload);
  }

  byRun(runId: string): unknown[] {
    return this.selectByRun.all(runId).map((row) => parseStoredJson(row.payload));
  }
}
