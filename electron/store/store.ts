import { ActionsRepo } from './actions-repo';
import { ApprovalsRepo } from './approvals-repo';
import { AuditEdits } from './audit-edits';
import { AuditQuery } from './audit-query';
import { AuditRepo } from './audit-repo';
import { CheckpointsRepo } from './checkpoints-repo';
import { DataRepo } from './data-repo';
import { openDatabase, type Db } from './database';
import { EventsRepo } from './events-repo';
import { MemoriesRepo } from './memories-repo';
import { PlansRepo } from './plans-repo';
import { PolicyRepo } from './policy-repo';
import { RunsRepo } from './runs-repo';
import { SettingsRepo } from './settings-repo';
import { TasksRepo } from './tasks-repo';
import { ThreadsRepo } from './threads-repo';

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
  readonly auditQuery: AuditQuery;
  readonly auditEdits: AuditEdits;
  readonly plans: PlansRepo;

  constructor(readonly db: Db) {
    this.threads = new ThreadsRepo(db);
    this.runs = new RunsRepo(db);
    this.actions = new ActionsRepo(db);
    this.events = new EventsRepo(db);
    this.tasks = new TasksRepo(db);
    this.settings = new SettingsRepo(db);
    this.approvals = new ApprovalsRepo(db);
    this.policy = new PolicyRepo(db);
    this.memories = new MemoriesRepo(db);
    this.checkpoints = new CheckpointsRepo(db);
    this.data = new DataRepo(db);
    this.audit = new AuditRepo(db);
    this.auditQuery = new AuditQuery(db);
    this.auditEdits = new AuditEdits(db, this.audit);
    this.plans = new PlansRepo(db);
  }

  static open(file: string): Store {
    return new Store(openDatabase(file));
  }

  transaction<T>(work: () => T): T {
    return this.db.transaction(work)();
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
