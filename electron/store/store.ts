import { ActionsRepo } from './actions-repo';
import { ApprovalsRepo } from './approvals-repo';
import { ArtifactsRepo } from './artifacts-repo';
import { AuditEdits } from './audit-edits';
import { AuditInbox } from './audit-inbox';
import { AuditQuery } from './audit-query';
import { AuditSearchIndex } from './audit-search-index';
import { AuditRepo } from './audit-repo';
import { CheckpointsRepo } from './checkpoints-repo';
import { DataRepo } from './data-repo';
import { DecisionsRepo } from './decisions-repo';
import { openDatabase, type Db } from './database';
import { EventsRepo } from './events-repo';
import type { FolderLock } from './folder-lock';
import { LineageRepo } from './lineage-repo';
import { MemoriesRepo } from './memories-repo';
import { PlansRepo } from './plans-repo';
import { PolicyRepo } from './policy-repo';
import { RunsRepo } from './runs-repo';
import { SettingsRepo } from './settings-repo';
import { TasksRepo } from './tasks-repo';
import { UndoLedger } from './undo-ledger';
import { EndedRunEffects } from './ended-run-effects';
import { ThreadsRepo } from './threads-repo';
import { ThreadExportRows } from './thread-export-rows';
import { TasksMemoriesExportRows } from './tasks-memories-export-rows';
import { ThreadSearch } from './thread-search';
import { WriteUnit } from './write-unit';

/** The database and its repositories; `transaction` groups writes that must land together. */
export class Store {
  readonly threads: ThreadsRepo;
  readonly runs: RunsRepo;
  readonly actions: ActionsRepo;
  readonly events: EventsRepo;
  readonly tasks: TasksRepo;
  readonly settings: SettingsRepo;
  readonly approvals: ApprovalsRepo;
  readonly policy: PolicyRepo;
  readonly memories: MemoriesRepo;
  readonly checkpoints: CheckpointsRepo;
  readonly data: DataRepo;
  readonly audit: AuditRepo;
  /** Where the audit trail's entries enter it; a step's are filed after the fact (migration 21). */
  readonly auditInbox: AuditInbox;
  readonly auditQuery: AuditQuery;
  /** The audit trail's full-text index, brought up to date after the fact (migration 16). */
  readonly auditSearch: AuditSearchIndex;
  readonly auditEdits: AuditEdits;
  readonly undoLedger: UndoLedger;
  readonly endedRunEffects: EndedRunEffects;
  readonly decisions: DecisionsRepo;
  /** The step's unit of work: see `WriteUnit`. */
  readonly writes: WriteUnit;
  readonly lineage: LineageRepo;
  readonly artifacts: ArtifactsRepo;
  readonly plans: PlansRepo;
  readonly threadSearch: ThreadSearch;
  /** "Export conversations": every conversation, a bounded page at a time. */
  readonly threadExport: ThreadExportRows;
  /** "Export tasks and memories": both lists, a bounded page at a time. */
  readonly tasksMemoriesExport: TasksMemoriesExportRows;

  /** The data folder's lock (`lockDataFolder`), given up when the store closes. */
  private lock: FolderLock | null = null;

  constructor(readonly db: Db) {
    this.writes = new WriteUnit(db);
    // The thread list shows each conversation's last run status, which a step may still hold (RunsRepo).
    const readRuns = (): void => this.runs.writeChanges();
    this.threads = new ThreadsRepo(db, readRuns);
    this.threadSearch = new ThreadSearch(db, readRuns);
    this.threadExport = new ThreadExportRows(db, readRuns);
    this.tasksMemoriesExport = new TasksMemoriesExportRows(db);
    this.runs = new RunsRepo(db, this.writes);
    this.actions = new ActionsRepo(db, this.writes);
    this.events = new EventsRepo(db, this.writes);
    this.tasks = new TasksRepo(db);
    this.settings = new SettingsRepo(db);
    this.approvals = new ApprovalsRepo(db);
    this.policy = new PolicyRepo(db);
    this.memories = new MemoriesRepo(db);
    this.checkpoints = new CheckpointsRepo(db);
    this.data = new DataRepo(db);
    this.auditInbox = new AuditInbox(db);
    this.audit = new AuditRepo(db, this.writes, this.auditInbox);
    this.auditSearch = new AuditSearchIndex(db, this.auditInbox);
    this.auditQuery = new AuditQuery(db, this.auditSearch, this.auditInbox);
    this.auditEdits = new AuditEdits(db, this.audit, this.auditInbox);
    this.undoLedger = new UndoLedger(db, this.auditInbox);
    this.endedRunEffects = new EndedRunEffects(db, this.auditInbox);
    this.decisions = new DecisionsRepo(db);
    this.lineage = new LineageRepo(db);
    this.artifacts = new ArtifactsRepo(db);
    this.plans = new PlansRepo(db);
  }

  /** Opens the database; with `lock`, the store holds it until it closes (or fails to open). */
  static open(file: string, lock?: FolderLock): Store {
    try {
      const store = new Store(openDatabase(file));
      store.lock = lock ?? null;
      return store;
    } catch (error) {
      lock?.release();
      throw error;
    }
  }

  transaction<T>(work: () => T): T {
    return this.writes.transaction(work);
  }

  close(): void {
    try {
      this.writes.durable();
      if (this.db.open) this.db.close();
    } finally {
      this.lock?.release();
    }
  }

  /**
   * Hands the data folder's lock to the caller, who releases it: the host keeps the folder until its workers
   * and servers have stopped too, after the store has closed.
   */
  takeLock(): FolderLock | null {
    const { lock } = this;
    this.lock = null;
    return lock;
  }
}
