import type { AuditEntry, AuditStatusFilter } from './contract/audit';
import { errorOutcome } from './contract/errors';

/** A run ended because an approval it waited for expired: its decision entry's outcome. */
export const APPROVAL_EXPIRED_OUTCOME = errorOutcome('approval_expired');
/** A run the person stopped (or that was stopped for them: a new message, its plan cancelled). */
export const CANCELLED_OUTCOME = errorOutcome('cancelled');

/**
 * What the audit trail says became of an entry: its stored status, or for a failed one what happened when it
 * did not fail: its approval was turned down or expired, the policy held it back (to ask a question) or blocked
 * it, or its run was stopped. The Status filter's choices are these, and the store finds each with the same
 * tests in SQL (`audit-query.ts`), so a choice lists what the viewer calls it.
 */
export function shownStatusOf(
  entry: Pick<AuditEntry, 'kind' | 'status' | 'authority' | 'isTurnedDown' | 'isExpired'>,
): AuditStatusFilter {
  if (entry.status !== 'failed') return entry.status;
  if (entry.isTurnedDown) return 'turned_down';
  if (entry.isExpired) return 'expired';
  const { decision, rule } = entry.authority;
  if (entry.kind === 'decision') {
    if (rule === APPROVAL_EXPIRED_OUTCOME) return 'expired';
    return rule === CANCELLED_OUTCOME ? 'stopped' : 'failed';
  }
  return decision === 'clarify' || decision === 'deny' ? 'not_done' : 'failed';
}
