import { AsyncLocalStorage } from 'node:async_hooks';
import type { Db } from './database';
import { GroupSavepoints } from './group-savepoints';

/** What a repo asks of the store's unit of work (`WriteUnit`, which is one). */
export interface UnitHooks {
  /** Which unit is open now, as a number no other unit has, or null when none is. */
  readonly openUnit: number | null;
  /** Inside a step, `write` runs just before the unit commits (a later one under `key` replaces it); else now. */
  atCommit(key: string, write: () => void): void;
  /** `undo` runs if the group running now fails: for memory kept beside its writes. */
  onRollback(undo: () => void): void;
}

/** Without a unit of work: every write is made at once. */
export const NO_UNIT: UnitHooks = {
  openUnit: null,
  atCommit: (_key, write) => write(),
  onRollback: () => {},
};

/**
 * Group commit for the engine: the writes of a run's step (its turn, the ledger rows, the audit entry, the
 * events, the checkpoint, and whatever another part of the loop adds) go into one SQLite transaction that is
 * committed at the step's durability point, instead of one commit per statement group. A commit in WAL mode
 * rewrites every page it touched; one commit per step writes each page once.
 *
 * Who joins: code running inside `step()` (the run loop, and everything it calls). Each `transaction()` there
 * is a savepoint inside the open unit (begun when it first writes), so it still lands whole or not at all. Writes from anywhere else (an
 * HTTP handler, the approval desk outside a run) are made durable before their `transaction()` returns, so an
 * answer a client receives is never ahead of the disk.
 *
 * Writes that a step repeats (a run's checkpoint, after every change) can be deferred to the commit with
 * `atCommit`, so the step writes the last of them only.
 *
 * When it commits: at `durable()` (the loop calls it before a model request is sent and around a side effect),
 * when the step scope ends, and at the latest when the event loop turns (a real model's or tool's wait), so no
 * write waits longer than the current macrotask.
 */
export class WriteUnit implements UnitHooks {
  private readonly begin;
  private readonly commit;
  private readonly inTransaction: (work: () => unknown) => unknown;
  private readonly groups: GroupSavepoints;
  private readonly scope = new AsyncLocalStorage<true>();
  private isOpen = false;
  private isScheduled = false;
  private depth = 0;
  private steps = 0;
  private isFoldScheduled = false;
  private readonly fold;
  private readonly deferred = new Map<string, () => void>();
  private units = 0;
  /** What to undo in memory if a group fails, one list per `transaction` running now, innermost last. */
  private readonly undoFrames: (() => void)[][] = [];
  /** Steps waiting for their turn on the main thread (see `waitTurn`): the loop turning does not commit then. */
  private waitingTurns = 0;
  /**
   * Set while another connection folds the log in in the background (the WAL keeper): this connection then no
   * longer does it when idle.
   */
  isLogKeptElsewhere = false;

  constructor(private readonly db: Db) {
    // IMMEDIATE: the unit writes anyway, and taking the write lock first means a read at the start of a step
    // never has to be upgraded to a write after another process (an MCP host on the same file) committed.
    this.begin = db.prepare('BEGIN IMMEDIATE');
    this.commit = db.prepare('COMMIT');
    this.fold = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
    // A group with no transaction open is one of its own (better-sqlite3's); inside one, a savepoint begun
    // only once the group writes (GroupSavepoints, made before any other statement on the connection).
    this.inTransaction = db.transaction((work: () => unknown) => work());
    this.groups = new GroupSavepoints(db);
  }

  /** `work` all or nothing: a savepoint inside the open transaction, else a transaction of its own. */
  private group(work: () => unknown): unknown {
    return this.db.inTransaction ? this.groups.run(work) : this.inTransaction(work);
  }

  /** Runs `work` (sync or async) with its writes joining the step's unit; the unit is committed when it ends. */
  async step<T>(work: () => Promise<T>): Promise<T> {
    this.steps += 1;
    try {
      return await this.scope.run(true, () => {
        this.open();
        return work();
      });
    } finally {
      this.steps -= 1;
      this.durable();
      if (this.steps === 0) this.foldWhenIdle();
    }
  }

  /**
   * With no step going, the write-ahead log is folded into the database (a passive checkpoint: it waits for
   * no one) once the event loop turns, so SQLite's own checkpoint every 1000 pages rarely lands inside a step.
   */
  private foldWhenIdle(): void {
    if (this.isFoldScheduled || this.isLogKeptElsewhere) return;
    this.isFoldScheduled = true;
    setImmediate(() => {
      this.isFoldScheduled = false;
      if (this.steps > 0 || this.isOpen || !this.db.open || this.db.inTransaction) return;
      this.fold.run();
    });
  }

  /** Whether the caller's writes join the open unit rather than commit on their own. */
  get isInStep(): boolean {
    return this.scope.getStore() === true;
  }

  /** `work` as one all-or-nothing group: a savepoint of the step's unit inside a step, its own commit outside. */
  transaction<T>(work: () => T): T {
    if (this.isInStep) this.open();
    this.depth += 1;
    const undos: (() => void)[] = [];
    this.undoFrames.push(undos);
    let isRolledBack = false;
    try {
      return this.group(work) as T;
    } catch (error) {
      isRolledBack = true;
      for (const undo of undos.reverse()) undo();
      throw error;
    } finally {
      this.undoFrames.pop();
      // A group inside another goes back with it if that one fails.
      if (!isRolledBack) this.undoFrames.at(-1)?.push(...undos);
      this.depth -= 1;
      // Outside a step, what was written is on disk before the caller goes on (and answers anyone).
      if (!this.isInStep) this.durable();
    }
  }

  /** Opens the unit (if it is not) so that the step's plain statements join it too. */
  open(): void {
    // SQLite rolls a transaction back by itself on some failures (disk full, I/O error): that unit is over.
    if (this.isOpen && !this.db.inTransaction) this.isOpen = false;
    if (this.isOpen || !this.db.open) return;
    if (this.db.inTransaction) return;
    this.begin.run();
    this.isOpen = true;
    this.units += 1;
    this.scheduleCommit();
  }

  /**
   * Which unit is open now, as a number no other unit has, or null when none is: a write made in the unit that
   * is still open is not on disk yet, and no one else has read it.
   */
  get openUnit(): number | null {
    return this.isOpen && this.db.inTransaction ? this.units : null;
  }

  /** The unit commits when the event loop turns (a model's or a tool's wait), unless it is committed before. */
  private scheduleCommit(): void {
    if (this.isScheduled) return;
    this.isScheduled = true;
    setImmediate(() => {
      this.isScheduled = false;
      // A step only waiting for its turn commits at its own boundary, a moment later: the unit stays open.
      if (this.waitingTurns > 0 && this.isOpen) return this.scheduleCommit();
      try {
        this.durable();
      } catch (error) {
        // The unit's other writes are committed; the write that failed is said, and the next one retries it.
        process.emitWarning(`A deferred write failed: ${(error as Error).message}`);
      }
    });
  }

  /**
   * A step waits for its turn on the main thread (fairTurn): a pause of a few loop turns while other runs take
   * theirs, not a wait for the world. The loop turning then does not commit the open unit; the next boundary
   * of any step does (each step has one before its model request), or the loop turning once nobody waits.
   */
  async waitTurn(turn: Promise<void>): Promise<void> {
    this.waitingTurns += 1;
    try {
      await turn;
    } finally {
      this.waitingTurns -= 1;
    }
  }

  /**
   * Commits the open unit: everything written so far is durable (WAL with synchronous=NORMAL: it survives a
   * crash of Deputy). Inside a `transaction()` callback it does nothing: that group commits with its unit.
   */
  durable(): void {
    if (!this.isOpen || this.depth > 0) return;
    const failure = this.runDeferred();
    this.isOpen = false;
    // A failed statement can make SQLite roll the whole transaction back (disk full, I/O error): then there is
    // nothing left to commit, and the error was already thrown to the writer.
    if (this.db.open && this.db.inTransaction) {
      this.commit.run();
    }
    if (failure) throw failure;
  }

  /**
   * `undo` runs if the group (`transaction`) running now fails and its writes are rolled back: for memory kept
   * beside those writes (rows waiting to be written at commit, a cached counter). Outside any group it is not
   * needed: nothing rolls a single statement's neighbours back.
   */
  onRollback(undo: () => void): void {
    this.undoFrames.at(-1)?.push(undo);
  }

  /**
   * Inside a step, `write` runs once, just before the unit commits, under `key`: a later write with the same key
   * replaces it. A value that is rewritten several times in a step (a run's checkpoint) is then written once,
   * as it is when the step's other writes commit with it. Outside a step it runs at once.
   */
  atCommit(key: string, write: () => void): void {
    if (!this.isInStep) return write();
    this.open();
    if (!this.isOpen) return write();
    this.deferred.delete(key);
    this.deferred.set(key, write);
  }

  /** Runs the deferred writes in the unit; one that fails does not stop the others, and its error is returned. */
  private runDeferred(): unknown {
    let failure: unknown = null;
    for (const [key, write] of this.deferred) {
      this.deferred.delete(key);
      this.depth += 1;
      try {
        this.group(write);
      } catch (error) {
        failure ??= error;
      } finally {
        this.depth -= 1;
      }
    }
    return failure;
  }

  /** Commits and then reopens the unit: a step boundary inside a step. */
  boundary(): void {
    this.durable();
    if (this.isInStep) this.open();
  }
}
