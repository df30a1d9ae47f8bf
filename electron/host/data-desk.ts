import {
  type CommandOutput,
  type CommandParsedInput,
  type DataCompactResult,
  type DataCounts,
  type DataStats,
  DeputyError,
  notFound,
} from '../../shared/contract';
import type { Store } from '../store/store';

export interface DataDeskDeps {
  store: Store;
  now: () => Date;
  /** Stops the thread's working runs and waits until each has recorded its ending; answers how many. */
  stopRunsIn: (threadId: string) => Promise<number>;
  hasRunsIn: (threadId: string) => boolean;
  /** Pending approvals may have gone with a conversation: the approvals list is told to read again. */
  approvalsChanged: () => void;
  /** The tables' rows counted off the main thread (the WAL keeper), or null when that cannot be done now. */
  countOffThread?: () => Promise<DataCounts | null>;
}

const DAY_MS = 24 * 60 * 60 * 1000;
/** Pruning deletes this many conversations per transaction, and lets other work in between. */
const PRUNE_BATCH = 100;

/** Settings → Data and its API: the database's size, deleting and pruning conversations, compacting. */
export class DataDesk {
  /** Conversations being deleted: a new message to one of them is refused, as if it were gone already. */
  private readonly deleting = new Set<string>();

  constructor(private readonly deps: DataDeskDeps) {}

  isDeleting(threadId: string): boolean {
    return this.deleting.has(threadId);
  }

  /**
   * A conversation with a run still working is deleted too: the run is stopped first (it records its ending,
   * then goes with the rest). Someone deleting a conversation wants it gone, not an error telling them to
   * wait for a run they may not see any more.
   */
  async deleteThread(input: CommandParsedInput<'thread.delete'>): Promise<CommandOutput<'thread.delete'>> {
    const { threadId } = input;
    if (!this.deps.store.threads.get(threadId) || this.deleting.has(threadId)) {
      throw notFound('conversation', threadId);
    }
    this.deleting.add(threadId);
    try {
      const stoppedRuns = await this.deps.stopRunsIn(threadId);
      this.remove([threadId], 'thread_deleted');
      return { deleted: threadId, stoppedRuns };
    } finally {
      this.deleting.delete(threadId);
    }
  }

  /** Conversations with a run still working are left alone: they are not old, whatever their date says. */
  async prune(input: CommandParsedInput<'threads.prune'>): Promise<CommandOutput<'threads.prune'>> {
    const before = new Date(this.deps.now().getTime() - input.olderThanDays * DAY_MS).toISOString();
    const old = this.deps.store.data
      .threadsLastActiveBefore(before)
      .filter((threadId) => !this.deps.hasRunsIn(threadId) && !this.deleting.has(threadId));
    const dryRun = input.dryRun ?? false;
    if (!dryRun) {
      for (let at = 0; at < old.length; at += PRUNE_BATCH) {
        this.remove(old.slice(at, at + PRUNE_BATCH), 'threads_pruned');
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
    return { threads: old.length, before, dryRun };
  }

  /**
   * The database's size and what it holds. Counting reads every row of the large tables, so it is done off the
   * main thread when it can be, and on the main connection when it cannot (no WAL keeper running).
   */
  async stats(): Promise<DataStats> {
    const { store } = this.deps;
    const { databaseBytes, walBytes } = store.data.sizes();
    const offThread = await this.deps.countOffThread?.();
    // Deputy closed the store while the thread counted, and the thread had no answer: nothing is left to count.
    if (!offThread && !store.db.open) throw new DeputyError('conflict', 'Deputy is shutting down.');
    const counts = offThread ?? store.data.counts();
    return { databaseBytes, walBytes, totalBytes: databaseBytes + walBytes, counts };
  }

  compact(): DataCompactResult {
    const total = (): number => {
      const { databaseBytes, walBytes } = this.deps.store.data.sizes();
      return databaseBytes + walBytes;
    };
    const bytesBefore = total();
    // VACUUM cannot run inside a transaction: a run step's open unit is committed first.
    this.deps.store.writes.durable();
    this.deps.store.data.compact();
    return { bytesBefore, bytesAfter: total() };
  }

  /** One transaction for the rows and the audit line that says they went; the audit keeps no conversation text. */
  private remove(threadIds: string[], event: 'thread_deleted' | 'threads_pruned'): void {
    const { store } = this.deps;
    const runIds = threadIds.flatMap((threadId) => store.data.runIdsOf(threadId));
    const deleted = store.transaction(() => {
      const now = this.deps.now().toISOString();
      const gone = threadIds.filter((threadId) => store.data.deleteThread(threadId));
      // The conversations' audit entries become tombstones (their words go, what was done stays) and the
      // deletion is itself an entry: the chain loses no link and still checks.
      const scrubbed = store.auditEdits.scrubThreads(gone, now);
      store.audit.open(
        {
          kind: 'record',
          agentId: 'person',
          actionType: event,
          actionCategory: 'record',
          input: { threads: gone, runs: runIds.length, entriesScrubbed: scrubbed },
          status: 'completed',
          approvedBy: 'person',
          approvedAt: now,
          undoNote: 'A deleted conversation is gone for good.',
        },
        now,
      );
      store.policy.audit({
        timestamp: this.deps.now().toISOString(),
        runId: null,
        actionId: null,
        tool: null,
        event,
        decision: null,
        rule: null,
        reason: null,
        detail: { threads: gone, runs: runIds.length },
      });
      return gone;
    });
    for (const runId of runIds) store.checkpoints.forget(runId);
    if (deleted.length > 0) this.deps.approvalsChanged();
  }
}
