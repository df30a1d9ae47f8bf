import { z } from 'zod';
import { redactedJson } from '../vault/redactor';
import type { RunEvent } from '../../shared/contract';
import type { Db } from './database';
import { parseStoredJson } from './json';

/** What the runtime log records (Keep-Up §5.6): enough to replay and explain a run after the fact. */
export const RuntimeEventType = z.enum([
  'turn_start',
  'turn_end',
  'tool_call_start',
  'tool_call_end',
  'recovery',
  'completion',
  'error',
  'routing',
  'retry',
  'compression',
  'resume',
]);
export type RuntimeEventType = z.infer<typeof RuntimeEventType>;

const RuntimeEventSchema = z.object({
  type: RuntimeEventType,
  runId: z.string(),
  threadId: z.string(),
  agentId: z.string(),
  turn: z.number(),
  timestamp: z.string(),
  toolCallId: z.string().optional(),
  payload: z.record(z.string(), z.unknown()),
});

/**
 * One entry of a run's runtime log: what the engine did and why (turns, tool calls, retries, routing,
 * recovery). Unlike the stream events it is for diagnosis, not for the UI.
 */
export type RuntimeEvent = z.infer<typeof RuntimeEventSchema>;

/**
 * The append-only event log, two kinds in one table: `stream` rows are the contract's run events (text deltas
 * are not stored: the finished message is), `runtime` rows are the engine's runtime log. Nothing updates or
 * deletes a row here.
 */
export class EventsRepo {
  private readonly insertEvent;
  private readonly selectByRun;

  constructor(db: Db) {
    this.insertEvent = db.prepare<[string, string, string, string, string, 'stream' | 'runtime']>(
      'INSERT INTO events (run_id, thread_id, event_type, timestamp, payload, kind) VALUES (?, ?, ?, ?, ?, ?)',
    );
    this.selectByRun = db.prepare<[string, 'stream' | 'runtime'], { payload: string }>(
      'SELECT payload FROM events WHERE run_id = ? AND kind = ? ORDER BY id',
    );
  }

  /** `payload` is the event's JSON when the caller has already redacted it; otherwise it is made here. */
  append(event: RunEvent, now: string, payload: string = redactedJson(event)): void {
    this.insertEvent.run(event.runId, event.threadId, event.type, now, payload, 'stream');
  }

  /** The run's stream events, oldest first (runtime rows are not among them). */
  byRun(runId: string): unknown[] {
    return this.selectByRun.all(runId, 'stream').map((row) => parseStoredJson(row.payload));
  }

  /** Records one runtime event; the whole event is the payload, with every secret taken out. */
  appendRuntime(event: RuntimeEvent): void {
    this.insertEvent.run(
      event.runId,
      event.threadId,
      event.type,
      event.timestamp,
      redactedJson(event),
      'runtime',
    );
  }

  /** The run's runtime log in the order it was written; a row that does not read as an event is left out. */
  runtimeByRun(runId: string): RuntimeEvent[] {
    const events: RuntimeEvent[] = [];
    for (const row of this.selectByRun.all(runId, 'runtime')) {
      const parsed = RuntimeEventSchema.safeParse(parseStoredJson(row.payload));
      if (parsed.success) events.push(parsed.data);
    }
    return events;
  }
}
