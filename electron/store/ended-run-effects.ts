import type { AuditInbox } from './audit-inbox';
import type { Db } from './database';

/**
 * Side effects that runs which have ended left `started` (settled at start: settleEndedRuns). Found through their
 * audit entries, still pending, as the undos cut short are (UndoLedger): pending entries are few, the ledger is not.
 */
export class EndedRunEffects {
  private readonly selectRuns;

  constructor(
    db: Db,
    private readonly inbox: AuditInbox,
  ) {
    this.selectRuns = db
      .prepare<[], string>(
        `SELECT DISTINCT a.run_id FROM audit_entries e INDEXED BY audit_entries_by_status
         JOIN actions a ON a.id = e.action_id
         JOIN runs r ON r.id = a.run_id
         WHERE e.status = 'pending' AND a.state = 'started' AND a.has_side_effects = 1
           AND a.call_id NOT LIKE 'undo:%' AND r.status IN ('completed', 'failed')`,
      )
      .pluck();
  }

  /** The runs that have ended with a side effect still `started`. */
  runIds(): string[] {
    this.inbox.file();
    return this.selectRuns.all();
  }
}
