import { redactSecrets, redactedJson } from '../vault/redactor';
import type { RunEvent } from '../../shared/contract';
import type { Db } from './database';
import { NO_UNIT, type UnitHooks } from './write-unit';
import { parseStoredJson } from './json';
import { DEFAULT_AGENT_ID } from './runs-repo';
import {
  FIRST_RUNTIME_CODE,
  RUNTIME_CODES,
  RUNTIME_NAMES,
  RuntimeEventSchema,
  STREAM_CODES,
  STREAM_NAMES,
  type RuntimeEvent,
} from './journal-codes';

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

/** Rows per insert statement when the rows waiting for a commit are written. */
const ROWS_PER_INSERT = 16;

/** A row counted in its run and waiting for the unit of work's commit (see `EventsRepo.insert`). */
interface WaitingRow {
  runId: string;
  threadId: string;
  run: RunKey;
  seq: number;
  row: Omit<JournalRow, 'thread'>;
}

/**
 * The run's append-only journal (migration 15): its stream events (the contract's run events; text deltas are
 * not stored, the finished message is) and its runtime log, as one kind of row. A row names its run by a small
 * integer key, its type by a code and its instant in milliseconds, and keeps only what those do not say.
 * Rows written before the journal existed are read from the old `events` table, ahead of the journal's.
 * Nothing updates or deletes a row here.
 */
export class EventsRepo {
  private readonly selectLastSeq;
  private readonly selectKey;
  private readonly insertKey;
  private readonly selectRows;
  private readonly selectLegacy;
  private readonly keys = new Map<string, RunKey>();
  private waiting: WaitingRow[] = [];
  private readonly insertRows = new Map<number, ReturnType<Db['prepare']>>();

  constructor(
    private readonly db: Db,
    private readonly unit: Pick<UnitHooks, 'atCommit' | 'onRollback'> = NO_UNIT,
  ) {
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
    this.flush();
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
    this.flush();
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

  /**
   * Counts the row in its run and writes it when the step's unit of work commits, with the other rows of the
   * step in a few statements instead of one each (outside a step, at once). If the group it was written in
   * fails, the row goes back with it, as a written row would.
   */
  private insert(runId: string, threadId: string, row: Omit<JournalRow, 'thread'>): void {
    const run = this.runKey(runId);
    const waiting: WaitingRow = { runId, threadId, run, seq: run.seq + 1, row };
    run.seq = waiting.seq;
    this.waiting.push(waiting);
    this.unit.onRollback(() => {
      this.waiting = this.waiting.filter((other) => other !== waiting);
      // A row counted after this one keeps its number: a gap in the count is harmless.
      if (run.seq === waiting.seq) run.seq -= 1;
    });
    this.unit.atCommit('journal', () => this.flush());
  }

  /**
   * Writes the rows waiting for the commit. If the group this runs in fails, they wait again: their own groups
   * decide whether they stay.
   */
  flush(): void {
    if (this.waiting.length === 0) return;
    const rows = this.waiting;
    this.waiting = [];
    this.unit.onRollback(() => {
      this.waiting = [...rows, ...this.waiting];
    });
    let failure: unknown = null;
    for (let start = 0; start < rows.length; start += ROWS_PER_INSERT) {
      const chunk = rows.slice(start, start + ROWS_PER_INSERT);
      try {
        this.statementFor(chunk.length).run(chunk.flatMap(valuesOf));
      } catch (error) {
        if (!isConstraintError(error)) {
          // The disk refused (full, an I/O error): what is not written yet waits for the next commit.
          this.waiting = [...rows.slice(start), ...this.waiting];
          throw error;
        }
        failure ??= this.writeEach(chunk);
      }
    }
    if (failure) throw failure;
  }

  /** The rows one by one, after their batch was refused; a row that cannot be written does not stop the rest. */
  private writeEach(rows: readonly WaitingRow[]): unknown {
    let failure: unknown = null;
    for (const waiting of rows) {
      try {
        this.writeOne(waiting);
      } catch (error) {
        failure ??= error;
      }
    }
    return failure;
  }

  /**
   * One row on its own, after its batch was refused: the cached key's row was rolled back with a failed
   * transaction, its run deleted, or another connection wrote to the run. The key is looked up again.
   */
  private writeOne(waiting: WaitingRow): void {
    try {
      this.statementFor(1).run(valuesOf(waiting));
    } catch (error) {
      if (!isConstraintError(error)) throw error;
      this.keys.delete(waiting.runId);
      const run = this.runKey(waiting.runId);
      run.seq += 1;
      this.statementFor(1).run(valuesOf({ ...waiting, run, seq: run.seq }));
    }
  }

  private statementFor(rows: number): ReturnType<Db['prepare']> {
    let statement = this.insertRows.get(rows);
    if (!statement) {
      statement = this.db.prepare(
        `INSERT INTO journal (run, seq, at, type, turn, call, thread, agent, body) VALUES ${Array.from(
          { length: rows },
          () => '(?, ?, ?, ?, ?, ?, ?, ?, ?)',
        ).join(', ')}`,
      );
      this.insertRows.set(rows, statement);
    }
    return statement;
  }

  /** The run's journal key, made on its first row; a run that does not exist is refused, as before. */
  private runKey(runId: string): RunKey {
    const cached = this.keys.get(runId);
    if (cached) return cached;
    const found = this.selectKey.get(runId);
    if (!found) throw new Error(`No run ${runId} to journal for.`);
    const isNew = found.key === null;
    const key = found.key ?? Number(this.insertKey.run(runId).lastInsertRowid);
    if (this.keys.size >= KEY_CACHE_LIMIT) this.keys.clear();
    // Rows of the run may still be waiting for the commit (the cache started over in between).
    const waitingSeq = Math.max(
      0,
      ...this.waiting.filter((row) => row.run.key === key).map((row) => row.seq),
    );
    const runKey = {
      key,
      threadId: found.threadId,
      seq: Math.max(this.selectLastSeq.get(key) ?? 0, waitingSeq),
    };
    this.keys.set(runId, runKey);
    // A key made in a group that fails goes back with it.
    if (isNew) this.unit.onRollback(() => this.keys.delete(runId));
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

/** A waiting row's values in the insert's order; its thread only when it differs from its run's. */
function valuesOf({ run, seq, threadId, row }: WaitingRow): unknown[] {
  const thread = threadId === run.threadId ? null : threadId;
  return [run.key, seq, row.at, row.type, row.turn, row.call, thread, row.agent, row.body];
}
