import { z } from 'zod';
import { PageCursor } from './paging';
import { CallNames } from './run';

/** Spec 004's audit trail: what Deputy did, why, under whose authority, and how to undo it. */
export const AuditEntryKind = z.enum(['tool_call', 'undo', 'decision', 'record']);
export const AuditStatus = z.enum(['pending', 'completed', 'failed', 'rolled_back']);
export type AuditStatus = z.infer<typeof AuditStatus>;
/**
 * The Status filter: a stored status, or what became of an entry stored `failed` (with why as its error) that did
 * not go wrong: `turned_down`, its approval was turned down; `expired`, its approval expired unanswered (and the run
 * that ended for it); `not_done`, the policy held it back to ask a question, or blocked it; `stopped`, a run that
 * was stopped. `failed` then lists the rest, what went wrong.
 */
export const AuditStatusFilter = z.enum([
  ...AuditStatus.options,
  'turned_down',
  'expired',
  'not_done',
  'stopped',
]);
export type AuditStatusFilter = z.infer<typeof AuditStatusFilter>;
export const AssumptionCategory = z.enum(['intent', 'context', 'preference', 'inference']);
export type AssumptionCategory = z.infer<typeof AssumptionCategory>;
/** Who let an action happen: the person (an approval, an undo they asked for), their rule, or the settings. */
export const AuditApprover = z.enum(['person', 'plan', 'rule', 'trust_level', 'autonomy', 'policy']);
export type AuditApprover = z.infer<typeof AuditApprover>;

export const AuditAssumption = z.object({
  id: z.string(),
  statement: z.string(),
  category: AssumptionCategory,
  evidence: z.array(z.string()),
  confidence: z.number().nullable(),
  verified: z.boolean().nullable(),
  verifiedAt: z.string().nullable(),
  correction: z.string().nullable(),
});
export type AuditAssumption = z.infer<typeof AuditAssumption>;

export const AuditEntry = z.object({
  id: z.string(),
  seq: z.number().int(),
  kind: AuditEntryKind,
  // Where
  actionId: z.string().nullable(),
  threadId: z.string().nullable(),
  runId: z.string().nullable(),
  agentId: z.string(),
  // What
  actionType: z.string(),
  actionCategory: z.string(),
  risk: z.string().nullable(),
  // Why
  intent: z.string().nullable(),
  reasoning: z.string().nullable(),
  confidence: z.number().nullable(),
  assumptions: z.array(AuditAssumption),
  // Effect
  entityType: z.string().nullable(),
  entityId: z.string().nullable(),
  entityBefore: z.unknown(),
  entityAfter: z.unknown(),
  /** To whom or where, as a person names it: recipients, a channel, an event, a task. */
  target: z.string().nullable(),
  // Data (redacted; output capped, `outputRef` points at the full stored result)
  input: z.unknown(),
  output: z.unknown(),
  outputRef: z.string().nullable(),
  isOutputTruncated: z.boolean(),
  // Outcome
  status: AuditStatus,
  errorMessage: z.string().nullable(),
  durationMs: z.number().nullable(),
  modelUsed: z.string().nullable(),
  /** A call's: the tokens (input and output) of the model turn that asked for it. A decision's: the run's. */
  tokensUsed: z.number().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  // Authority
  authority: z.object({
    decision: z.string().nullable(),
    rule: z.string().nullable(),
    reason: z.string().nullable(),
    approvedBy: AuditApprover.nullable(),
    approvedAt: z.string().nullable(),
  }),
  undo: z.object({
    isReversible: z.boolean(),
    /** Why there is no Undo when there is none ("A sent email cannot be unsent."). */
    whyNot: z.string().nullable(),
    undoOf: z.string().nullable(),
    undoneBy: z.string().nullable(),
  }),
  /** Its conversation was deleted: what was done is kept, its words are gone. */
  scrubbedAt: z.string().nullable(),
  /**
   * Its approval was turned down (by the person, or for them: they wrote again, cancelled the plan, or the tool
   * went), so it was not done and nothing went wrong. Read from the approvals when the entry is read, not stored:
   * the entry says `failed`, with why as its error. Absent on entries not read from the trail (an undo's answer).
   */
  isTurnedDown: z.boolean().optional(),
  /**
   * Its approval expired: nobody answered in time, so it was not done and nothing went wrong. Read from the
   * approvals as `isTurnedDown` is, and absent where that is.
   */
  isExpired: z.boolean().optional(),
  /**
   * What the person knows the ids among the call's arguments by (`{"C0RANDOM01": "#random"}`), as its tool card
   * has them: a call's own, an undo's those of the call it undid. Read from the ledger when the entry is read, not
   * stored; absent when there are none (a call from before they were kept).
   */
  names: CallNames.optional(),
});
export type AuditEntry = z.infer<typeof AuditEntry>;

const Id = z.string().min(1).max(128);
const Word = z.string().trim().min(1).max(100);
const Instant = z.iso.datetime({ offset: true });

export const AuditFilter = z
  .object({
    from: Instant.optional(),
    to: Instant.optional(),
    threadId: Id.optional(),
    runId: Id.optional(),
    agentId: Word.optional(),
    tool: Word.optional(),
    category: Word.optional(),
    status: AuditStatusFilter.optional(),
    risk: Word.optional(),
    decision: Word.optional(),
    /** Full-text words (FTS5, each word a prefix). */
    q: z.string().trim().max(200).optional(),
  })
  .strict();
export type AuditFilter = z.infer<typeof AuditFilter>;

export const AUDIT_PAGE = { default: 50, max: 200 } as const;

export const AuditListInput = AuditFilter.extend({
  limit: z.number().int().min(1).max(AUDIT_PAGE.max).optional(),
  /** The `nextCursor` of the previous page. */
  cursor: PageCursor.optional(),
})
  .strict()
  .default({});
export type AuditListInput = z.infer<typeof AuditListInput>;
export const AuditListOutput = z.object({ entries: z.array(AuditEntry), nextCursor: z.string().nullable() });
export type AuditListOutput = z.infer<typeof AuditListOutput>;

/** An entry by its own id or by the ledger action it describes (a chat tool card knows the action). */
export const AuditGetInput = z.object({ id: Id }).strict();
export const AuditGetOutput = z.object({ entry: AuditEntry, related: z.array(AuditEntry) });
export type AuditGetOutput = z.infer<typeof AuditGetOutput>;

export const AuditAssumptionsOutput = z.object({ assumptions: z.array(AuditAssumption) });

export const AuditVerifyInput = z
  .object({
    id: Id,
    assumptionId: Id,
    verified: z.boolean(),
    /** What is true instead; with `remember`, kept as a memory so the next run knows. */
    correction: z.string().trim().min(1).max(2_000).optional(),
    remember: z.boolean().optional(),
  })
  .strict();
export const AuditVerifyOutput = z.object({
  assumption: AuditAssumption,
  memoryId: z.string().nullable(),
});

export const AuditUndoInput = z
  .object({
    id: Id,
    /**
     * Undo even though the thing changed since the action (the `changed_since` error said what changed). A
     * forced undo always waits for the person's approval.
     */
    force: z.boolean().optional(),
  })
  .strict();
export const AuditUndoOutput = z.object({
  /** Undone now, or waiting for the person's approval (an approval like any other, with its expiry). */
  status: z.enum(['undone', 'approval_required']),
  /** What was done, or why it waits for approval. */
  message: z.string(),
  undo: AuditEntry.nullable(),
  original: AuditEntry,
  /** The approval the undo waits for. */
  approvalId: z.string().nullable(),
});
export type AuditUndoOutput = z.infer<typeof AuditUndoOutput>;

export const AuditExportFormat = z.enum(['jsonl', 'csv']);
export const AuditExportInput = AuditFilter.extend({
  format: AuditExportFormat,
  cursor: PageCursor.optional(),
}).strict();
/** One page of an export: lines to append, and the cursor of the next page (null at the end). */
export const AuditExportOutput = z.object({ text: z.string(), nextCursor: z.string().nullable() });

export const AuditChainInput = z.object({}).strict().default({});
export const AuditChainOutput = z.object({
  ok: z.boolean(),
  links: z.number().int(),
  entries: z.number().int(),
  /** The first place the chain does not match, or null. */
  mismatch: z
    .object({
      entryId: z.string().nullable(),
      link: z.number().int().nullable(),
      reason: z.string(),
    })
    .nullable(),
});
export type AuditChainOutput = z.infer<typeof AuditChainOutput>;
