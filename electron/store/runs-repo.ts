import { redactNullable, redactSecrets, redactValue } from '../vault/redactor';
import { RunIntent, type ResponseMode, type RunRecord, type RunStatus } from '../../shared/contract';
import type { Db } from './database';
import { NO_UNIT, type UnitHooks } from './write-unit';
import { parseStoredJson } from './json';

interface RunRow {
  id: string;
  thread_id: string;
  status: RunStatus;
  model: string;
  summary: string | null;
  error_code: string | null;
  error_message: string | null;
  decision: string | null;
  outcome: string | null;
  recovered: number;
  resumed: number;
  intent_json: string | null;
  input_tokens: number;
  output_tokens: number;
  created_at: string;
  updated_at: string;
  /** Read by `byThread` alone: the run that delegated to this one, if an agent's child. */
  parent_run_id?: string | null;
}

const toRun = (row: RunRow): RunRecord => ({
  id: row.id,
  threadId: row.thread_id,
  status: row.status,
  model: row.model,
  summary: row.summary,
  errorCode: row.error_code,
  errorMessage: row.error_message,
  decision: row.decision,
  outcome: row.outcome,
  recovered: row.recovered === 1,
  resumed: row.resumed === 1,
  intent: readIntent(row.intent_json),
  ...((row.input_tokens > 0 || row.output_tokens > 0) && {
    usage: { inputTokens: row.input_tokens, outputTokens: row.output_tokens },
  }),
  ...(row.parent_run_id && { parentRunId: row.parent_run_id }),
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

/** A stored intent that no longer parses is shown as none rather than failing the whole thread. */
function readIntent(json: string | null): RunIntent | null {
  const parsed = RunIntent.safeParse(parseStoredJson(json));
  return parsed.success ? parsed.data : null;
}

export interface RunEnding {
  status: 'completed' | 'failed' | 'awaiting_confirmation';
  mode: ResponseMode;
  summary: string;
  decision: string;
  outcome: string;
  errorCode: string | null;
  errorMessage: string | null;
  /** The run was finished by its final-warning turn rather than by the model on its own. */
  recovered?: boolean;
}

const RUN_COLUMNS =
  'id, thread_id, status, model, summary, error_code, error_message, decision, outcome, recovered, resumed, intent_json, input_tokens, output_tokens, created_at, updated_at';

/** Which agent runs a thread's runs when the caller names none. */
export const DEFAULT_AGENT_ID = 'deputy';

/** What a unit of work changed on a run's row so far: written once, as the unit commits. */
interface RunChange {
  status: RunStatus | null;
  updatedAt: string | null;
  inputTokens: number;
  outputTokens: number;
}

const TERMINAL: ReadonlySet<RunStatus> = new Set(['completed', 'failed']);

/**
 * Runs of a thread: status, ending, usage, and whether a run was resumed or recovered.
 *
 * A step changes its run's row several times (planning, executing, planning again; the tokens of each model
 * turn). Inside a unit of work those changes are gathered and written once, as the unit commits (`atCommit`):
 * one statement, and the status (and so the index of unfinished runs) only when it differs from the one on
 * disk, which it mostly does not from one step to the next. A read of runs through this repo writes them
 * first, so it never sees the row behind.
 */
export class RunsRepo {
  private readonly insertRun;
  private readonly updateStatus;
  private readonly updateChange;
  private readonly updateEnding;
  private readonly selectRun;
  private readonly selectByThread;
  private readonly selectState;
  private readonly selectPrompt;
  private readonly selectUnfinished;
  private readonly updateResumed;
  private readonly updateIntent;
  private readonly selectIntent;
  private readonly selectUsage;
  private readonly selectUsageSince;
  private readonly changes = new Map<string, RunChange>();
  /** The status this repo last wrote for a run (a finished run's is dropped once its status event is in). */
  private readonly storedStatus = new Map<string, RunStatus>();

  /**
   * `unit`: a write to make just before the open unit commits (at once outside a step), and memory to undo if
   * the group running now fails. Without one, every change is written at once.
   */
  constructor(
    db: Db,
    private readonly unit: UnitHooks = NO_UNIT,
  ) {
    this.insertRun = db.prepare(
      `INSERT INTO runs (id, thread_id, status, model, prompt, agent_id, created_at, updated_at)
       VALUES (?, ?, 'queued', ?, ?, ?, ?, ?)`,
    );
    this.updateStatus = db.prepare(
      `UPDATE runs SET status = ?, updated_at = ?, input_tokens = input_tokens + ?,
       output_tokens = output_tokens + ? WHERE id = ?`,
    );
    // No status in it: SQLite then leaves the index of unfinished runs alone.
    this.updateChange = db.prepare(
      `UPDATE runs SET updated_at = coalesce(?, updated_at), input_tokens = input_tokens + ?,
       output_tokens = output_tokens + ? WHERE id = ?`,
    );
    this.updateEnding = db.prepare(
      `UPDATE runs SET status = ?, mode = ?, summary = ?, decision = ?, outcome = ?, error_code = ?,
       error_message = ?, recovered = ?, updated_at = ? WHERE id = ?`,
    );
    this.selectRun = db.prepare<[string], RunRow>(`SELECT ${RUN_COLUMNS} FROM runs WHERE id = ?`);
    // The parent is one row of agent_lineage, found by its unique run_id.
    this.selectByThread = db.prepare<[string], RunRow>(
      `SELECT ${RUN_COLUMNS}, (SELECT parent_run_id FROM agent_lineage WHERE run_id = runs.id) AS parent_run_id
       FROM runs WHERE thread_id = ? ORDER BY created_at, rowid`,
    );
    this.selectState = db.prepare<[string], { state_json: string | null }>(
      'SELECT state_json FROM runs WHERE id = ?',
    );
    this.selectPrompt = db.prepare<[string], { prompt: string }>('SELECT prompt FROM runs WHERE id = ?');
    // The WHERE repeats runs_unfinished's own condition, so SQLite reads that partial index. The unary plus
    // keeps it from walking runs_by_time instead, to skip the sort of a few rows: that walk reads every run.
    this.selectUnfinished = db.prepare<[], RunRow>(
      `SELECT ${RUN_COLUMNS} FROM runs WHERE status NOT IN ('completed','failed') ORDER BY +created_at, rowid`,
    );
    this.updateResumed = db.prepare('UPDATE runs SET resumed = 1, updated_at = ? WHERE id = ?');
    this.updateIntent = db.prepare('UPDATE runs SET intent_json = ? WHERE id = ?');
    this.selectIntent = db.prepare<[string], { intent_json: string | null }>(
      'SELECT intent_json FROM runs WHERE id = ?',
    );
    this.selectUsage = db.prepare<[string], { input_tokens: number; output_tokens: number; model: string }>(
      'SELECT input_tokens, output_tokens, model FROM runs WHERE id = ?',
    );
    this.selectUsageSince = db.prepare<
      [string],
      { created_at: string; model: string; input_tokens: number; output_tokens: number }
    >(
      `SELECT created_at, model, input_tokens, output_tokens FROM runs
       WHERE created_at >= ? AND (input_tokens > 0 OR output_tokens > 0)`,
    );
  }

  create(
    run: { id: string; threadId: string; model: string; prompt: string; agentId?: string },
    now: string,
  ): void {
    this.insertRun.run(
      run.id,
      run.threadId,
      run.model,
      redactSecrets(run.prompt),
      run.agentId ?? DEFAULT_AGENT_ID,
      now,
      now,
    );
    this.rememberStatus(run.id, 'queued');
  }

  setStatus(id: string, status: RunStatus, now: string): void {
    this.change(id, (change) => ({ ...change, status, updatedAt: now }));
  }

  end(id: string, ending: RunEnding, now: string): void {
    // What the unit gathered goes first, so none of it lands after (and over) the ending.
    this.writeChange(id);
    this.rememberStatus(id, ending.status);
    this.updateEnding.run(
      ending.status,
      ending.mode,
      redactSecrets(ending.summary),
      ending.decision,
      ending.outcome,
      ending.errorCode,
      redactNullable(ending.errorMessage),
      ending.recovered ? 1 : 0,
      now,
      id,
    );
  }

  addUsage(id: string, inputTokens: number, outputTokens: number): void {
    this.change(id, (change) => ({
      ...change,
      inputTokens: change.inputTokens + inputTokens,
      outputTokens: change.outputTokens + outputTokens,
    }));
  }

  /** Gathers a change to the run's row, to be written as the unit commits; it goes if its group fails. */
  private change(id: string, next: (change: RunChange) => RunChange): void {
    const before = this.changes.get(id);
    this.changes.set(id, next(before ?? { status: null, updatedAt: null, inputTokens: 0, outputTokens: 0 }));
    this.unit.onRollback(() => {
      if (before) this.changes.set(id, before);
      else this.changes.delete(id);
    });
    this.unit.atCommit(`run:${id}`, () => this.writeChange(id));
  }

  /** Writes what was gathered for the run, if anything. */
  private writeChange(id: string): void {
    const change = this.changes.get(id);
    if (!change) return;
    this.changes.delete(id);
    // Written inside a group that then fails, the row goes back: so does this, to be written again. (What
    // the group gathered after it is undone first, so nothing newer is there to keep.)
    this.unit.onRollback(() => {
      if (!this.changes.has(id)) this.changes.set(id, change);
    });
    const { status, updatedAt, inputTokens, outputTokens } = change;
    const stored = this.storedStatus.get(id);
    if (status !== null && status !== stored) {
      this.updateStatus.run(status, updatedAt, inputTokens, outputTokens, id);
      this.rememberStatus(id, status);
    } else if (updatedAt !== null || inputTokens !== 0 || outputTokens !== 0) {
      this.updateChange.run(updatedAt, inputTokens, outputTokens, id);
    }
    // A finished run's status is kept until the status event that follows its ending has been gathered here.
    if (stored !== undefined && TERMINAL.has(stored) && status === stored) this.forgetStatus(id);
  }

  /** Writes every run's gathered changes now: for a reader of `runs` outside this repo (the thread list). */
  writeChanges(): void {
    for (const id of [...this.changes.keys()]) this.writeChange(id);
  }

  private rememberStatus(id: string, status: RunStatus | undefined): void {
    const before = this.storedStatus.get(id);
    if (status === undefined) this.storedStatus.delete(id);
    else this.storedStatus.set(id, status);
    this.unit.onRollback(() => {
      if (before) this.storedStatus.set(id, before);
      else this.storedStatus.delete(id);
    });
  }

  private forgetStatus(id: string): void {
    this.rememberStatus(id, undefined);
  }

  /** The tokens a run has used so far, and its model (for what they cost). */
  usage(id: string): { inputTokens: number; outputTokens: number; model: string } | null {
    this.writeChange(id);
    const row = this.selectUsage.get(id);
    return row ? { inputTokens: row.input_tokens, outputTokens: row.output_tokens, model: row.model } : null;
  }

  /** Every run since `since` (ISO) that used tokens: when it started, its model and its tokens. */
  usageSince(since: string): { at: string; model: string; inputTokens: number; outputTokens: number }[] {
    this.writeChanges();
    return this.selectUsageSince.all(since).map((row) => ({
      at: row.created_at,
      model: row.model,
      inputTokens: row.input_tokens,
      outputTokens: row.output_tokens,
    }));
  }

  get(id: string): RunRecord | null {
    this.writeChange(id);
    const row = this.selectRun.get(id);
    return row ? toRun(row) : null;
  }

  /** Whether the run completed or failed (false for one not stored). */
  hasEnded(id: string): boolean {
    const status = this.get(id)?.status;
    return status !== undefined && TERMINAL.has(status);
  }

  /** What the run was asked (redacted when it was stored). */
  prompt(id: string): string | null {
    return this.selectPrompt.get(id)?.prompt ?? null;
  }

  byThread(threadId: string): RunRecord[] {
    this.writeChanges();
    return this.selectByThread.all(threadId).map(toRun);
  }

  /** Runs that neither completed nor failed, oldest first: what start-up resumes after Deputy stopped mid-run. */
  unfinished(): RunRecord[] {
    this.writeChanges();
    return this.selectUnfinished.all().map(toRun);
  }

  /** Records the run's intent analysis (redacted: the model may have copied the person's words into it). */
  setIntent(id: string, intent: RunIntent): void {
    this.updateIntent.run(JSON.stringify(redactValue(intent)), id);
  }

  /** The intent analysis last recorded for the run (`setIntent` writes it at once, never gathered). */
  intentOf(id: string): RunIntent | null {
    return readIntent(this.selectIntent.get(id)?.intent_json ?? null);
  }

  /** Marks a run as picked up again after a stop, so the user can tell it did not run in one go. */
  markResumed(id: string, now: string): void {
    this.updateResumed.run(now, id);
  }

  /** The state a run paused for approval kept before checkpoints existed (version 1), read to upgrade it. */
  loadState(id: string): unknown {
    return parseStoredJson(this.selectState.get(id)?.state_json ?? null);
  }
}
