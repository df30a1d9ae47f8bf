import { z } from 'zod';

export { TASKS_THREAD_ID } from '../tasks-thread';

/** A task of the person's local list, as the Tasks panel shows it. */
export const TaskItem = z.object({
  id: z.string(),
  description: z.string(),
  due: z.string().nullable(),
  notes: z.string().nullable(),
  status: z.enum(['open', 'done']),
  createdAt: z.string(),
  completedAt: z.string().nullable(),
});
export type TaskItem = z.infer<typeof TaskItem>;

export const TasksListInput = z
  .object({ status: z.enum(['open', 'done', 'all']).optional() })
  .strict()
  .default({});
export const TasksListOutput = z.object({ tasks: z.array(TaskItem) });

/**
 * A change the person makes in the Tasks panel: the chat's own task tools, with their own arguments (each
 * tool's schema checks them), under the same policy, approvals, ledger and audit trail.
 */
export const TasksChangeInput = z
  .object({
    tool: z.enum(['add_task', 'update_task', 'mark_task_complete', 'delete_task']),
    args: z.record(z.string(), z.unknown()),
  })
  .strict();
export type TasksChangeInput = z.infer<typeof TasksChangeInput>;

export const TasksChangeOutput = z.discriminatedUnion('status', [
  z.object({ status: z.literal('done'), result: z.record(z.string(), z.unknown()) }),
  /** The person's rules ask first: the approval waits in Approvals (and in the panel). */
  z.object({ status: z.literal('waiting'), approvalId: z.string() }),
  /** The policy refused it (side effects paused, a rule) or the person rejected it: `reason` says why. */
  z.object({ status: z.literal('refused'), reason: z.string() }),
  z.object({ status: z.literal('failed'), reason: z.string() }),
]);
export type TasksChangeOutput = z.infer<typeof TasksChangeOutput>;
