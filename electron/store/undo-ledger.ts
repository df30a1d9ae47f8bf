import type { AuditInbox } from './audit-inbox';
import type { Db } from './database';

/**
 * An undo is a ledger action of the run its original belonged to, keyed by the entry it undoes: the call id
 * `undo:<entry id>` (unique per run, so one entry has one undo row, reused when an attempt failed) and the same
 * idempotency key. Its audit entries (one per attempt) point at that row.
 */
export const undoCallId = (entryId: string): string => `undo:${entryId}`;

export class UndoLedger {
  private readonly selectCallId;
  private readonly selectAttempt;
  private readonly selectPending;

  constructor(
    db: Db,
    private readonly inbox: AuditInbox,
  ) {
    this.selectCallId = db.prepare<[string], string>('SELECT call_id FROM actions WHERE id = ?').pluck();
    this.selectAttempt = db
      .prepare<[string], string>(
        `SELECT id FROM audit_entries WHERE action_id = ? AND kind = 'undo' ORDER BY seq DESC LIMIT 1`,
      )
      .pluck();
    // Found through the status index: pending entries are few (held calls, undos in flight).
    this.selectPending = db
      .prepare<[], string>(
        `SELECT id FROM audit_entries INDEXED BY audit_entries_by_status
         WHERE status = 'pending' AND kind = 'undo' ORDER BY seq`,
      )
      .pluck();
  }

  /** Whether a ledger action is an undo (its approval is decided by the audit desk, not by a run). */
  isUndo(actionId: string): boolean {
    return this.selectCallId.get(actionId)?.startsWith('undo:') ?? false;
  }

  /** The latest attempt's entry of an undo ledger action. */
  attemptOf(actionId: string): string | null {
    this.inbox.file();
    return this.selectAttempt.get(actionId) ?? null;
  }

  /** Undo entries still pending: held for approval, approved, or cut short by a crash. */
  pendingEntries(): string[] {
    this.inbox.file();
    return this.selectPending.all();
  }
}
