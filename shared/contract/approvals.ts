import { z } from 'zod';
import { RunResponse } from './run';

export const ApprovalStatus = z.enum(['pending', 'approved', 'rejected', 'expired']);
export type ApprovalStatus = z.infer<typeof ApprovalStatus>;
/** Who settled an approval: the person (approved, rejected, edited), or Deputy itself (expired, written over…). */
export const ApprovalDecider = z.enum(['person', 'deputy']);
export type ApprovalDecider = z.infer<typeof ApprovalDecider>;

/** A human-readable view of what the call would do: labelled fields, an optional body, an optional before/after. */
export const ApprovalPreview = z.object({
  title: z.string(),
  fields: z.array(z.object({ label: z.string(), value: z.string() })),
  body: z.string().optional(),
  changes: z.array(z.object({ label: z.string(), before: z.string(), after: z.string() })).optional(),
  /** Everyone the effect reaches, as read before the decision: who will be told, and how. */
  reach: z.array(z.object({ address: z.string(), role: z.string(), name: z.string().optional() })).optional(),
  /** Where the call's content came from, when content read in the run could have steered it. */
  origins: z.array(z.string()).optional(),
});
export type ApprovalPreview = z.infer<typeof ApprovalPreview>;

/** What "always allow" would create: one scoped rule, spelled out, never a blanket grant of the tool. */
export const AlwaysAllowScope = z.object({
  field: z.string(),
  pattern: z.string(),
  label: z.string(),
});
export type AlwaysAllowScope = z.infer<typeof AlwaysAllowScope>;

export const Approval = z.object({
  id: z.string(),
  runId: z.string(),
  threadId: z.string(),
  actionId: z.string(),
  tool: z.string(),
  args: z.record(z.string(), z.unknown()),
  fingerprint: z.string(),
  status: ApprovalStatus,
  level: z.enum(['confirm', 'review']),
  reason: z.string(),
  rule: z.string(),
  risk: z.enum(['low', 'medium', 'high', 'critical']),
  preview: ApprovalPreview,
  /** The preview as one string, as the runtime spec's `approval.preview`. */
  previewText: z.string(),
  intent: z.string().nullable(),
  reasoning: z.string().nullable(),
  confidence: z.number().nullable(),
  assumptions: z.array(z.string()),
  alwaysAllowScopes: z.array(AlwaysAllowScope),
  /** JSON Schema of the tool's arguments, so an editor can show what is allowed. */
  argsSchema: z.record(z.string(), z.unknown()),
  createdAt: z.string(),
  expiresAt: z.string(),
  decidedAt: z.string().nullable(),
  decisionNote: z.string().nullable(),
  /** Who settled it; absent while it waits, and on approvals settled before Deputy kept this. */
  decidedBy: ApprovalDecider.optional(),
  /** Spec 004: the plan and the step this call carries out, when the run has a plan. */
  planId: z.string().optional(),
  stepId: z.string().optional(),
});
export type Approval = z.infer<typeof Approval>;

export const ApprovalListInput = z
  .object({
    status: z.enum(['pending', 'all']).optional(),
    limit: z.number().int().min(1).max(200).optional(),
  })
  .default({});
export const ApprovalListOutput = z.object({ approvals: z.array(Approval) });

export const ApprovalDecideInput = z.discriminatedUnion('decision', [
  z.object({
    approvalId: z.string().min(1),
    decision: z.literal('approve'),
    /** Also create the scoped rule offered in `alwaysAllowScopes` with this field and pattern. */
    alwaysAllow: z.object({ field: z.string().min(1), pattern: z.string().min(1) }).optional(),
  }),
  z.object({
    approvalId: z.string().min(1),
    decision: z.literal('reject'),
    reason: z.string().trim().max(1_000).optional(),
  }),
]);
export type ApprovalDecideInput = z.infer<typeof ApprovalDecideInput>;

export const ApprovalEditInput = z.object({
  approvalId: z.string().min(1),
  args: z.record(z.string(), z.unknown()),
});
export type ApprovalEditInput = z.infer<typeof ApprovalEditInput>;

/** Deciding continues the same run; the answer is that run's result, as `POST /api/agent/run` would give it. */
export const ApprovalDecideOutput = RunResponse;

export const ApprovalsChangedFilter = z.object({}).default({});
export const ApprovalsChangedEvent = z.object({
  type: z.literal('approvals.changed'),
  /** Every approval still pending, newest first. */
  pending: z.array(Approval),
  /** The approval whose change caused this event, if one did. */
  changed: Approval.nullable(),
});
export type ApprovalsChangedEvent = z.infer<typeof ApprovalsChangedEvent>;
