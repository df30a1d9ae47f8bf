import { z } from 'zod';
import { redactSecrets, redactedJson } from '../vault/redactor';
import type { RunEvent } from '../../shared/contract';
import type { Db } from './database';
import { parseStoredJson } from './json';
import { DEFAULT_AGENT_ID } from './runs-repo';

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

/** The journal's type codes (migration 15's `journal_types`): frozen, a code is never reused. */
export const STREAM_CODES: Readonly<Record<RunEvent['type'], number>> = {
  status: 1,
  tool_call: 2,
  tool_result: 3,
  usage: 4,
  approval_needed: 5,
  notice: 6,
  plan: 7,
  thinking: 8,
  result: 9,
  error: 10,
  delta: 11,
};
export const RUNTIME_CODES: Readonly<Record<RuntimeEventType, number>> = {
  turn_start: 21,
  turn_end: 22,
  tool_call_start: 23,
  tool_call_end: 24,
  recovery: 25,
  completion: 26,
  error: 27,
  routing: 28,
  retry: 29,
  compression: 30,
  resume: 31,
};
const STREAM_NAMES = new Map(Object.entries(STREAM_CODES).map(([name, code]) => [code, name]));
const RUNTIME_NAMES = new Map(Object.entries(RUNTIME_CODES).map(([name, code]) => [code, name]));
const FIRST_RUNTIME_CODE = 21;

interface JournalRow {
  at: number;
  type: number;
  turn: number | null;
  call: string | null;
  thread: string | null;
  agent: string | null;
  body: string;
}

interface RunKey {
  key: number;
  threadId: string;
  /** The run's last row: a row's place in its run is counted here, read from the table once per run. */
  seq: number;
}

/** More runs than this in the key cache (a long session) and it starts over: a miss costs one indexed read. */
const KEY_CACHE_LIMIT = 2_000;

/**
 * The run's append-only journal (migration 15): its stream events (the contract's run events; text deltas are
 * not stored, the finished message is) and its runtime log, as one kind of row. A row names its run by a small
 * integer key, its type by a code and its instant in milliseconds, and keeps only what those do not say.
 * Rows written before the journal existed are read from the old `events` table, ahead of the journal's.
 * Nothing updates or deletes a row here.
 */
export class EventsRepo {
  private readonly insertRow;
  private readonly selectLastSeq;
  private readonly selectKey;
  private readonly insertKey;
  private readonly selectRows;
  private readonly selectLegacy;
  private readonly keys = new Map<string, RunKey>();

  constructor(db: Db) {
    this.insertRow = db.prepare<
      [number, number, number, number, number | null, string | null, string | null, string | null, string]
    >(
      'INSERT INTO journal (run, seq, at, type, turn, call, thread, agent, body) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    this.selectLastSeq = db
      .prepare<[number], number | null>('SELECT max(seq) FROM journal WHERE run = ?')
      .pluck();
    this.selectKey = db.prepare<[string], { key: number | null; threadId: string }>(
      'SELECT k.key AS key, r.thread_id AS threadId FROM runs AS r LEFT JOIN run_keys AS k ON k.run_id = r.id WHERE r.id = ?',
    );
    this.insertKey = db.prepare<[string]>('INSERT INTO run_keys (run_id) VALUES (?)');
    this.selectRows = db.prepare<[string], JournalRow>(
      `SELECT j.at, j.type, j.turn, j.call, j.thread, j.agent, j.body
       FROM run_keys AS k JOIN journal AS j ON j.run = k.key WHERE k.run_id = ? ORDER BY j.seq`,
    );
    this.selectLegacy = db.prepare<[string, 'stream' | 'runtime'], { payload: string }>(
      'SELECT payload FROM events WHERE run_id = ? AND kind = ? ORDER BY id',
    );
  }

  /** Records a stream event, taking every secret out of it first. */
  append(event: RunEvent, now: string): void {
    this.appendRedacted(JSON.parse(redactedJson(event)) as RunEvent, now);
  }

  /** Records a stream event the caller has already taken the secrets out of (the host does, once, for all). */
  appendRedacted(event: RunEvent, now: string): void {
    const { type, runId, threadId, ...rest } = event;
    this.insert(runId, threadId, {
      at: instantOf(now),
      type: STREAM_CODES[type],
      turn: null,
      call: null,
      agent: null,
      body: JSON.stringify(rest),
    });
  }

  /** Records one runtime event, with every secret taken out of its payload. */
  appendRuntime(event: RuntimeEvent): void {
    this.insert(event.runId, event.threadId, {
      at: instantOf(event.timestamp),
      type: RUNTIME_CODES[event.type],
      turn: event.turn,
      call: event.toolCallId === undefined ? null : redactSecrets(event.toolCallId),
      agent: event.agentId === DEFAULT_AGENT_ID ? null : event.agentId,
      body: redactedJson(event.payload),
    });
  }

  /** The run's stream events, oldest first (runtime rows are not among them). */
  byRun(runId: string): unknown[] {
    const events = this.selectLegacy.all(runId, 'stream').map((row) => parseStoredJson(row.payload));
    const threadId = this.threadOf(runId);
    for (const row of this.selectRows.all(runId)) {
      const type = row.type < FIRST_RUNTIME_CODE ? STREAM_NAMES.get(row.type) : undefined;
      if (type === undefined) continue;
      const body = parseStoredJson(row.body);
      events.push({ type, runId, threadId: row.thread ?? threadId, ...(isRecord(body) ? body : {}) });
    }
    return events;
  }

  /** The run's runtime log in the order it was written; a row that does not read as an event is left out. */
  runtimeByRun(runId: string): RuntimeEvent[] {
    const events: RuntimeEvent[] = [];
    const keep = (value: unknown): void => {
      const parsed = RuntimeEventSchema.safeParse(value);
      if (parsed.success) events.push(parsed.data);
    };
    for (const row of this.selectLegacy.all(runId, 'runtime')) keep(parseStoredJson(row.payload));
    const threadId = this.threadOf(runId);
    for (const row of this.selectRows.all(runId)) {
      const type = RUNTIME_NAMES.get(row.type);
      if (type === undefined) continue;
      keep({
        type,
        runId,
        threadId: row.thread ?? threadId,
        agentId: row.agent ?? DEFAULT_AGENT_ID,
        turn: row.turn,
        timestamp: new Date(row.at).toISOString(),
        ...(row.call !== null && { toolCallId: row.call }),
        payload: parseStoredJson(row.body),
      });
    }
    return events;
  }

  private insert(runId: string, threadId: string, row: Omit<JournalRow, 'thread'>): void {
    const write = (run: RunKey): void => {
      const thread = threadId === run.threadId ? null : threadId;
      const seq = run.seq + 1;
      this.insertRow.run(run.key, seq, row.at, row.type, row.turn, row.call, thread, row.agent, row.body);
      run.seq = seq;
    };
    const cached = this.keys.get(runId);
    if (!cached) return write(this.keyOf(runId));
    try {
      write(cached);
    } catch (error) {
      // The cached key's row was rolled back with a failed transaction, its run deleted, or another connection
      // wrote to the run: look it up again. (A rolled-back row only leaves a gap in the count, which is harmless.)
      if (!isConstraintError(error)) throw error;
      this.keys.delete(runId);
      write(this.keyOf(runId));
    }
  }

  /** The run's journal key, made on its first row; a run that does not exist is refused, as before. */
  private keyOf(runId: string): RunKey {
    const found = this.selectKey.get(runId);
    if (!found) throw new Error(`No run ${runId} to journal for.`);
    const key = found.key ?? Number(this.insertKey.run(runId).lastInsertRowid);
    if (this.keys.size >= KEY_CACHE_LIMIT) this.keys.clear();
    const runKey = { key, threadId: found.threadId, seq: this.selectLastSeq.get(key) ?? 0 };
    this.keys.set(runId, runKey);
    return runKey;
  }

  private threadOf(runId: string): string {
    return this.selectKey.get(runId)?.threadId ?? '';
  }
}

/** A stored instant in milliseconds; a time that does not parse is stored as when it was written. */
function instantOf(iso: string): number {
  const at = Date.parse(iso);
  return Number.isFinite(at) ? at : Date.now();
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isConstraintError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'SQLITE_CONSTRAINT_FOREIGNKEY' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
