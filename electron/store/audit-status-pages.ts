import { APPROVAL_EXPIRED_OUTCOME, CANCELLED_OUTCOME } from '../../shared/audit-status';
import type { AuditStatus, AuditStatusFilter } from '../../shared/contract';
import { NOT_DONE_TERMS, RUN_ENDING_TERMS } from './migration-24-audit-statuses';

/** How an approval ended when its action was not done. */
export type ApprovalEnding = 'rejected' | 'expired';

/** The Status choices of what did not happen, which the trail stores as `failed`. */
export type AmongFailed = Exclude<AuditStatusFilter, AuditStatus>;

/** The entry's action waited for an approval that ended so: found by the approvals' unique action id. */
const approvalEnded = (status: ApprovalEnding) =>
  `EXISTS (SELECT 1 FROM approvals a WHERE a.action_id = e.action_id AND a.status = '${status}')`;

/**
 * How the Status filter finds, among the failed entries, those `shownStatusOf` says did not fail: the same tests,
 * in SQL (`IS` where a column may be null, so that `NOT` of them is never null).
 */
const AMONG_FAILED: Record<AmongFailed, string> = {
  turned_down: approvalEnded('rejected'),
  expired: `(${approvalEnded('expired')} OR (e.kind = 'decision' AND e.rule IS '${APPROVAL_EXPIRED_OUTCOME}'))`,
  not_done: `(e.kind <> 'decision' AND (e.decision IS 'clarify' OR e.decision IS 'deny'))`,
  stopped: `(e.kind = 'decision' AND e.rule IS '${CANCELLED_OUTCOME}')`,
};

export const isAmongFailed = (status: AuditStatusFilter): status is AmongFailed => status in AMONG_FAILED;

/**
 * What the Status filter asks of an entry, beside any index (a status stored as such is bound as `@status`). What did not happen is stored `failed`: its choice
 * finds it among the failed entries, and `failed` leaves out every such one, so each choice lists what the
 * viewer says of it.
 */
export function statusConditions(status: AuditStatusFilter): string[] {
  if (isAmongFailed(status)) return ["e.status = 'failed'", AMONG_FAILED[status]];
  if (status === 'failed')
    return ["e.status = 'failed'", `NOT (${Object.values(AMONG_FAILED).join(' OR ')})`];
  return ['e.status = @status'];
}

/** One ordered walk of a page: the rows it reads, what each must meet, and the `seq` it goes down. */
interface StatusWalk {
  from: string;
  where: readonly string[];
  seq: string;
}

/** The runs that ended with `rule` (migration 24's `audit_entries_run_endings`). */
const runsEnded = (rule: string): StatusWalk => ({
  from: 'audit_entries e INDEXED BY audit_entries_run_endings',
  where: [...RUN_ENDING_TERMS, `e.rule = '${rule}'`],
  seq: 'e.seq',
});

/** The calls whose approval ended so, from migration 24's notes, each checked against its approval. */
const approvalsEnded = (ending: ApprovalEnding): StatusWalk => ({
  from: 'audit_approval_endings x CROSS JOIN audit_entries e ON e.seq = x.entry_seq',
  where: [`x.ending = '${ending}'`, "e.status = 'failed'", approvalEnded(ending)],
  seq: 'x.entry_seq',
});

/** Where each such choice's entries are, all of them and no others: `AMONG_FAILED`'s tests, a walk per `OR`. */
const WALKS: Record<AmongFailed, readonly StatusWalk[]> = {
  turned_down: [approvalsEnded('rejected')],
  expired: [runsEnded(APPROVAL_EXPIRED_OUTCOME), approvalsEnded('expired')],
  not_done: [
    {
      from: 'audit_entries e INDEXED BY audit_entries_not_done',
      where: [...NOT_DONE_TERMS, AMONG_FAILED.not_done],
      seq: 'e.seq',
    },
  ],
  stopped: [runsEnded(CANCELLED_OUTCOME)],
};

/**
 * A page of a choice stored as failed, read from indexes that hold its entries only (migration 24), newest
 * first: each walk goes down its own index in `seq` order and SQLite merges them, so a page reads about as many
 * rows as it shows, however many other entries failed. `conditions`: the page's other filters, of `e.seq`.
 * Rows come with `page_seq`, the `seq` the merge orders by.
 */
export function statusPageSql(status: AmongFailed, conditions: readonly string[]): string {
  const walks = WALKS[status].map(({ from, where, seq }) => {
    const all = [...where, ...conditions.map((condition) => condition.replaceAll('e.seq ', `${seq} `))];
    return `SELECT ${seq} AS page_seq, e.* FROM ${from} WHERE ${all.join(' AND ')}`;
  });
  return `${walks.join(' UNION ')} ORDER BY page_seq DESC LIMIT @limit`;
}
