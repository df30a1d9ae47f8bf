import type { AuditAssumption } from '../../shared/contract';
import { redactNullable } from '../vault/redactor';
import type { AuditInbox } from './audit-inbox';
import type { AuditRepo } from './audit-repo';
import { toAssumption, type AssumptionRow } from './audit-rows';
import type { Db } from './database';

/** What the person and the app change in entries after the fact: verifications, undo marks, tombstones. */
export class AuditEdits {
  private readonly selectAssumption;
  private readonly updateAssumption;
  private readonly selectThreadEntries;
  private readonly deleteAssumptions;

  constructor(
    db: Db,
    private readonly audit: AuditRepo,
    private readonly inbox: AuditInbox,
  ) {
    this.selectAssumption = db.prepare<[string, string], AssumptionRow>(
      'SELECT * FROM audit_assumptions WHERE id = ? AND entry_id = ?',
    );
    this.updateAssumption = db.prepare(
      'UPDATE audit_assumptions SET verified = ?, verified_at = ?, correction = ? WHERE id = ?',
    );
    this.selectThreadEntries = db
      .prepare<[string], string>('SELECT id FROM audit_entries WHERE thread_id = ? AND scrubbed_at IS NULL')
      .pluck();
    this.deleteAssumptions = db.prepare('DELETE FROM audit_assumptions WHERE entry_id = ?');
  }

  /** The person confirms or corrects an assumption; null when the entry has no such assumption. */
  verifyAssumption(
    entryId: string,
    assumptionId: string,
    verdict: { verified: boolean; correction: string | null },
    now: string,
  ): AuditAssumption | null {
    if (!this.selectAssumption.get(assumptionId, entryId)) return null;
    this.updateAssumption.run(
      verdict.verified ? 1 : 0,
      now,
      redactNullable(verdict.correction),
      assumptionId,
    );
    this.audit.change(entryId, 'confidence = confidence', {}, now);
    const row = this.selectAssumption.get(assumptionId, entryId);
    return row ? toAssumption(row) : null;
  }

  /** The original entry was undone by `undoEntryId`. */
  markUndone(entryId: string, undoEntryId: string, now: string): void {
    this.audit.change(entryId, `status = 'rolled_back', undone_by = @undoEntryId`, { undoEntryId }, now);
  }

  /**
   * A deleted conversation's entries become tombstones: what was done, when, by whose authority and with what
   * outcome stays; every word of the conversation (intent, reasoning, assumptions, data, targets) goes. Each
   * scrub appends a link, so the chain stays whole and still checks. Answers how many entries were scrubbed.
   */
  scrubThreads(threadIds: readonly string[], now: string): number {
    let count = 0;
    this.inbox.file();
    for (const threadId of threadIds) {
      for (const entryId of this.selectThreadEntries.all(threadId)) {
        this.deleteAssumptions.run(entryId);
        this.audit.change(
          entryId,
          `intent = NULL, reasoning = NULL, target = NULL, input_json = NULL, output_json = NULL,
           entity_before = NULL, entity_after = NULL, error_message = NULL, reason = NULL, scrubbed_at = @now`,
          {},
          now,
        );
        count += 1;
      }
    }
    return count;
  }
}
