import { redactedJson, redactKnownSecrets } from '../vault/redactor';
import {
  applyDelta,
  deltaText,
  readSnapshot,
  snapshotText,
  StateEncoder,
  UnreadableCheckpoint,
  type StateText,
} from './checkpoint-encoding';
import type { Db } from './database';

/** One tool call named in a checkpoint, by the model's call id. */
export interface CheckpointCall {
  callId: string;
  name: string;
}

/**
 * What the engine checkpoints after every tool result and at every turn boundary. The state is stored with the
 * vault's exact secrets taken out but nothing else changed: a resumed run must send the model, and run, exactly
 * what it would have (a mail that merely looks like it holds a token stays as written, as approvals do). Token
 * shapes are not left to this: the engine redacts what enters a run (the request, the model's text, every tool
 * result), so the state holds what the thread shows; only the model's own call arguments are kept as written.
 */
export interface CheckpointInput {
  id: string;
  runId: string;
  threadId: string;
  timestamp: string;
  /** The run's state; must be JSON. Array elements are treated as immutable once saved (see `save`). */
  state: Record<string, unknown>;
  pending: CheckpointCall[];
  completed: CheckpointCall[];
  usageTokens: number;
  usageCost: number | null;
}

export type CheckpointKind = 'snapshot' | 'delta';

export interface SavedCheckpoint {
  step: number;
  kind: CheckpointKind;
  /** What the row takes in the database (state blob and tool lists), in UTF-8 bytes; 0 when nothing changed. */
  bytes: number;
}

export interface LoadedCheckpoint {
  id: string;
  step: number;
  state: Record<string, unknown>;
}

export interface CheckpointStats {
  count: number;
  snapshots: number;
  bytes: number;
}

/**
 * A run's checkpoints cannot be put back together (a delta whose base is missing, a blob that does not parse).
 * The caller fails the run with this message rather than resuming from a guess.
 */
export class CheckpointError extends Error {
  override readonly name = 'CheckpointError';

  constructor(
    message: string,
    readonly runId: string,
    readonly step: number | null,
  ) {
    super(message);
  }
}

interface RunCache {
  /** The step of the last checkpoint this repo saved for the run, and what it contained. */
  step: number;
  keys: StateText;
  snapshotBytes: number;
  deltaBytesSinceSnapshot: number;
}

/** Deltas may add up to this many times their snapshot before the next checkpoint is a snapshot again. */
const DELTA_BUDGET = 4;
/** Runs whose last checkpoint is remembered; a run that falls out just writes a snapshot next time. */
const MAX_CACHED_RUNS = 32;

interface CheckpointRow {
  id: string;
  step: number;
  kind: CheckpointKind;
  base_step: number | null;
  state_blob: string;
}

/**
 * A run's state after every step, stored as deltas against the previous checkpoint with a snapshot whenever the
 * deltas since the last one outgrow four times its size. A new snapshot supersedes the chain before it, which
 * is deleted: a run keeps one snapshot and the deltas after it, about the size of its final state.
 */
export class CheckpointsRepo {
  private readonly insertCheckpoint;
  private readonly selectLatestSnapshot;
  private readonly selectAny;
  private readonly selectFromStep;
  private readonly selectStats;
  private readonly pruneBefore;
  private readonly cache = new Map<string, RunCache>();
  private readonly encoder = new StateEncoder();

  constructor(db: Db) {
    // The casts keep the statement planned once (see database.ts).
    // The step is taken inside the INSERT, so two writers cannot pick the same one; a delta is only written
    // while its base is still the run's latest checkpoint (not rolled back, not overtaken by another writer).
    this.insertCheckpoint = db.prepare<
      [
        {
          id: string;
          threadId: string;
          runId: string;
          baseStep: number | null;
          timestamp: string;
          kind: CheckpointKind;
          blob: string;
          pending: string;
          completed: string;
          usageTokens: number;
          usageCost: number | null;
        },
      ],
      { step: number }
    >(
      `INSERT INTO checkpoints (id, thread_id, run_id, step, base_step, timestamp, kind, state_blob, pending_tools,
         completed_tools, usage_tokens, usage_cost)
       SELECT @id, @threadId, @runId,
         (SELECT coalesce(max(step), 0) + 1 FROM checkpoints WHERE thread_id = CAST(@threadId AS TEXT)),
         @baseStep, @timestamp, @kind, @blob, @pending, @completed, @usageTokens, @usageCost
       WHERE CAST(@baseStep AS INTEGER) IS NULL
         OR (SELECT max(step) FROM checkpoints WHERE run_id = CAST(@runId AS TEXT)) = CAST(@baseStep AS INTEGER)
       RETURNING step`,
    );
    this.selectLatestSnapshot = db.prepare<[string], { step: number }>(
      `SELECT step FROM checkpoints WHERE run_id = CAST(? AS TEXT) AND kind = 'snapshot' ORDER BY step DESC LIMIT 1`,
    );
    this.selectAny = db.prepare<[string], { step: number }>(
      'SELECT step FROM checkpoints WHERE run_id = CAST(? AS TEXT) ORDER BY step DESC LIMIT 1',
    );
    this.selectFromStep = db.prepare<[string, number], CheckpointRow>(
      `SELECT id, step, kind, base_step, state_blob FROM checkpoints
       WHERE run_id = CAST(? AS TEXT) AND step >= CAST(? AS INTEGER) ORDER BY step`,
    );
    // Everything before a run's newest snapshot is superseded: a load reads that snapshot and the deltas after
    // it, nothing older. A checkpoint an artifact names as where it was made is kept for that record.
    this.pruneBefore = db.prepare<[string, number]>(
      `DELETE FROM checkpoints WHERE run_id = ? AND step < ?
         AND id NOT IN (SELECT checkpoint_id FROM artifacts WHERE checkpoint_id IS NOT NULL)`,
    );
    this.selectStats = db.prepare<
      [string],
      { count: number; snapshots: number | null; bytes: number | null }
    >(
      `SELECT count(*) AS count, sum(kind = 'snapshot') AS snapshots,
         sum(length(CAST(state_blob AS BLOB)) + coalesce(length(CAST(pending_tools AS BLOB)), 0)
           + coalesce(length(CAST(completed_tools AS BLOB)), 0)) AS bytes
       FROM checkpoints WHERE run_id = ?`,
    );
  }

  /**
   * Saves the run's state as the thread's next step: a delta against the run's previous checkpoint when this
   * repo saved it and the delta budget allows, otherwise a snapshot. Elements of array values are recognised
   * by identity, so they must not be mutated after a save (replace them instead).
   */
  save(input: CheckpointInput): SavedCheckpoint {
    const keys = this.encoder.describe(input.state);
    const previous = this.cache.get(input.runId);
    const pending = redactedJson(input.pending);
    const completed = redactedJson(input.completed);
    const row = {
      id: input.id,
      threadId: input.threadId,
      runId: input.runId,
      timestamp: input.timestamp,
      pending,
      completed,
      usageTokens: input.usageTokens,
      usageCost: input.usageCost,
    };
    const listBytes = Buffer.byteLength(pending) + Buffer.byteLength(completed);

    if (previous) {
      const text = deltaText(previous.keys, keys);
      // Nothing changed since the run's last checkpoint (still the latest in the database): that one stands.
      if (text === '{}' && this.selectAny.get(input.runId)?.step === previous.step) {
        return { step: previous.step, kind: 'delta', bytes: 0 };
      }
      const blob = redactKnownSecrets(text);
      const bytes = Buffer.byteLength(blob) + listBytes;
      if (previous.deltaBytesSinceSnapshot + bytes <= DELTA_BUDGET * previous.snapshotBytes) {
        const inserted = this.insertCheckpoint.get({ ...row, baseStep: previous.step, kind: 'delta', blob });
        if (inserted) {
          this.remember(input.runId, {
            step: inserted.step,
            keys,
            snapshotBytes: previous.snapshotBytes,
            deltaBytesSinceSnapshot: previous.deltaBytesSinceSnapshot + bytes,
          });
          return { step: inserted.step, kind: 'delta', bytes };
        }
      }
    }

    const blob = redactKnownSecrets(snapshotText(keys));
    const bytes = Buffer.byteLength(blob) + listBytes;
    const inserted = this.insertCheckpoint.get({ ...row, baseStep: null, kind: 'snapshot', blob });
    if (!inserted) throw new Error(`The checkpoint of run ${input.runId} was not written.`);
    // In the same transaction as the snapshot: a crash keeps either the old chain or the new snapshot, whole.
    this.pruneBefore.run(input.runId, inserted.step);
    this.remember(input.runId, {
      step: inserted.step,
      keys,
      snapshotBytes: bytes,
      deltaBytesSinceSnapshot: 0,
    });
    return { step: inserted.step, kind: 'snapshot', bytes };
  }

  /** The run's latest checkpoint, rebuilt from its last snapshot and the deltas after it; null when it has none. */
  load(runId: string): LoadedCheckpoint | null {
    const snapshot = this.selectLatestSnapshot.get(runId);
    if (!snapshot) {
      const any = this.selectAny.get(runId);
      if (!any) return null;
      throw new CheckpointError(
        `Run ${runId} has checkpoints up to step ${any.step} but no snapshot to rebuild them from.`,
        runId,
        any.step,
      );
    }
    const [first, ...deltas] = this.selectFromStep.all(runId, snapshot.step);
    if (!first)
      throw new CheckpointError(`The snapshot of run ${runId} disappeared while loading.`, runId, null);
    const state = decode(runId, first, () => readSnapshot(first.state_blob));
    let last = first;
    for (const delta of deltas) {
      if (delta.base_step !== last.step) {
        throw new CheckpointError(
          `Checkpoint step ${delta.step} of run ${runId} applies to step ${delta.base_step ?? 'none'}, ` +
            `but the checkpoint before it is step ${last.step}: the chain is broken.`,
          runId,
          delta.step,
        );
      }
      decode(runId, delta, () => applyDelta(state, delta.state_blob));
      last = delta;
    }
    return { id: last.id, step: last.step, state: Object.fromEntries(state) };
  }

  /** How many checkpoints the run has, how many are snapshots, and the bytes they take. */
  stats(runId: string): CheckpointStats {
    const row = this.selectStats.get(runId);
    return { count: row?.count ?? 0, snapshots: row?.snapshots ?? 0, bytes: row?.bytes ?? 0 };
  }

  /** Drops what this repo remembers of a run that has ended; a later save would start with a snapshot. */
  forget(runId: string): void {
    this.cache.delete(runId);
  }

  private remember(runId: string, entry: RunCache): void {
    this.cache.delete(runId);
    this.cache.set(runId, entry);
    if (this.cache.size > MAX_CACHED_RUNS) {
      const oldest = this.cache.keys().next().value;
      if (oldest !== undefined) this.cache.delete(oldest);
    }
  }
}

/** Names the run and step of a blob that cannot be read, for the message the run fails with. */
function decode<T>(runId: string, row: CheckpointRow, read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (!(error instanceof UnreadableCheckpoint)) throw error;
    throw new CheckpointError(
      `Checkpoint step ${row.step} of run ${runId} ${error.message}.`,
      runId,
      row.step,
    );
  }
}
