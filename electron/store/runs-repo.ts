import { redactNullable, redactSecrets, redactValue } from '../vault/redactor';
import { RunIntent, type ResponseMode, type RunRecord, type RunStatus } from '../../shared/contract';
import type { Db } from './database';
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

/** Runs of a thread: status, ending, usage, and whether a run was resumed or recovered. */
export class RunsRepo {
  private readonly insertRun;
  private readonly updateStatus;
  private readonly updateEnding;
  private readonly addUsageStmt;
  private readonly selectRun;
  private readonly selectByThread;
  private readonly selectState;
  private readonly selectUnfinished;
  private readonly updateResumed;
  private readonly updateIntent;
  private readonly selectUsage;
  private readonly selectUsageSince;

  constructor(db: Db) {
    this.insertRun = db.prepare(
      `INSERT INTO runs (id, thread_id, status, model, prompt, agent_id, created_at, updated_at)
       VALUES (?, ?, 'queued', ?, ?, ?, ?, ?)`,
    );
    this.updateStatus = db.prepare('UPDATE runs SET status = ?, updated_at = ? WHERE id = ?');
    this.updateEnding = db.prepare(
      `UPDATE runs SET status = ?, mode = ?, summary = ?, decision = ?, outcome = ?, error_code = ?,
       error_message = ?, recovered = ?, updated_at = ? WHERE id = ?`,
    );
    this.addUsageStmt = db.prepare(
      'UPDATE runs SET input_tokens = input_tokens + ?, output_tokens = output_tokens + ? WHERE id = ?',
    );
    this.selectRun = db.prepare<[string], RunRow>(`SELECT ${RUN_COLUMNS} FROM runs WHERE id = ?`);
    this.selectByThread = db.prepare<[string], RunRow>(
      `SELECT ${RUN_COLUMNS} FROM runs WHERE thread_id = ? ORDER BY created_at, rowid`,
    );
    this.selectState = db.prepare<[string], { state_json: string | null }>(
      'SELECT state_json FROM runs WHERE id = ?',
    );
    // The WHERE repeats runs_unfinished's own condition, so SQLite reads that partial index.
    this.selectUnfinished = db.prepare<[], RunRow>(
      `SELECT ${RUN_COLUMNS} FROM runs WHERE status NOT IN ('completed','failed') ORDER BY created_at, rowid`,
    );
    this.updateResumed = db.prepare('UPDATE runs SET resumed = 1, updated_at = ? WHERE id = ?');
    this.updateIntent = db.prepare('UPDATE runs SET intent_json = ? WHERE id = ?');
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
  }

  setStatus(id: string, status: RunStatus, now: string): void {
    this.updateStatus.run(status, now, id);
  }

  end(id: string, ending: RunEnding, now: string): void {
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
    this.addUsageStmt.run(inputTokens, outputTokens, id);
  }

  /** The tokens a run has used so far, and its model (for what they cost). */
  usage(id: string): { inputTokens: number; outputTokens: number; model: string } | null {
    const row = this.selectUsage.get(id);
    return row ? { inputTokens: row.input_tokens, outputTokens: row.output_tokens, model: row.model } : null;
  }

  /** Every run since `since` (ISO) that used tokens: when it started, its model and its tokens. */
  usageSince(since: string): { at: string; model: string; inputTokens: number; outputTokens: number }[] {
    return this.selectUsageSince.all(since).map((row) => ({
      at: row.created_at,
      model: row.model,
      inputTokens: row.input_tokens,
      outputTokens: row.output_tokens,
    }));
  }

  get(id: string): RunRecord | null {
    const row = this.selectRun.get(id);
    return row ? toRun(row) : null;
  }

  byThread(threadId: string): RunRecord[] {
    return this.selectByThread.all(threadId).map(toRun);
  }

  /** Runs that neither completed nor failed, oldest first: what start-up resumes after Deputy stopped mid-run. */
  unfinished(): RunRecord[] {
    return this.selectUnfinished.all().map(toRun);
  }

  /** Records the run's intent analysis (redacted: the model may have copied the person's words into it). */
  setIntent(id: string, intent: RunIntent): void {
    this.updateIntent.run(JSON.stringify(redactValue(intent)), id);
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
