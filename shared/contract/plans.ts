import { z } from 'zod';

/** Spec 004's plan: a goal broken into steps with dependencies, run under the policy, seen and steered by the person. */
export const PlanStatus = z.enum(['planned', 'executing', 'paused', 'completed', 'failed', 'cancelled']);
export type PlanStatus = z.infer<typeof PlanStatus>;

export const PlanStepStatus = z.enum([
  'pending',
  'ready',
  'running',
  'awaiting_approval',
  'awaiting_user',
  'done',
  'failed',
  'skipped',
  'cancelled',
]);
export type PlanStepStatus = z.infer<typeof PlanStepStatus>;

/** A tool call, the model's own reasoning (no tool), or a question for the person (spec 004's AWAITING_USER). */
export const PlanStepKind = z.enum(['tool', 'reason', 'ask']);
export type PlanStepKind = z.infer<typeof PlanStepKind>;

export const PlanStep = z.object({
  id: z.string(),
  title: z.string(),
  kind: PlanStepKind,
  tool: z.string().nullable(),
  /** The arguments the step fixes, or a sketch of them (a value like "${step}" is filled in later). */
  args: z.record(z.string(), z.unknown()),
  /** The argument fields a plan approval binds: recipients, calendar, channel, task. */
  fixed: z.array(z.string()),
  dependsOn: z.array(z.string()),
  status: PlanStepStatus,
  /** What the policy said of the step's sketch (estimateApprovals). */
  needsApproval: z.boolean(),
  approvalReason: z.string().nullable(),
  /** Whether the person's plan approval covers this step as it stands now. */
  isApproved: z.boolean(),
  question: z.string().nullable(),
  answer: z.string().nullable(),
  /** A short result: what the step found or did, or why it failed. */
  result: z.string().nullable(),
  attempts: z.number().int().min(0),
  maxAttempts: z.number().int().min(1),
  /** The ledger actions that carried it out (their audit entries have the same action ids). */
  actionIds: z.array(z.string()),
});
export type PlanStep = z.infer<typeof PlanStep>;

export const Plan = z.object({
  id: z.string(),
  runId: z.string(),
  threadId: z.string(),
  goal: z.string(),
  steps: z.array(PlanStep),
  /** The position of the first step not finished yet (steps.length once all are). */
  currentStep: z.number().int().min(0),
  status: PlanStatus,
  /** Whether a step still waits for an approval the plan's approval does not give. */
  requiresApproval: z.boolean(),
  approvedAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Plan = z.infer<typeof Plan>;

/** A `plan` run event: the whole plan when it is made, then only what changed. */
export const PlanPatch = z.object({
  id: z.string(),
  status: PlanStatus,
  currentStep: z.number().int().min(0),
  requiresApproval: z.boolean(),
  approvedAt: z.string().nullable(),
  steps: z.array(PlanStep),
});
export type PlanPatch = z.infer<typeof PlanPatch>;

const planId = z.string().min(1).max(100);
export const PlanGetInput = z.object({ planId });
export type PlanGetInput = z.infer<typeof PlanGetInput>;
export const PlanContinueInput = z.object({ planId, answer: z.string().trim().min(1).max(4_000).optional() });
export type PlanContinueInput = z.infer<typeof PlanContinueInput>;
export const PlanOutput = z.object({ plan: Plan });
export type PlanOutput = z.infer<typeof PlanOutput>;
