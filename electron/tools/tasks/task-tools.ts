import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Task, TasksRepo } from '../../store/tasks-repo';
import { ToolError, type Tool } from '../tool';
import { describeDue } from './due-words';
import { quoted } from '../../../shared/quote-words';

const isoDateOrDateTime = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2})?(\.\d+)?(Z|[+-]\d{2}:\d{2})?)?$/, {
    message: 'use an ISO date (2026-11-22) or date-time (2026-11-22T09:00)',
  });
const taskId = z.string().trim().min(1).max(100).describe('The task id, as list_tasks returns it.');
const description = z.string().trim().min(1).max(500);
const notes = z.string().trim().max(4_000);

const AddTaskInput = z
  .object({
    description: description.describe('What needs doing, in a short phrase.'),
    due: isoDateOrDateTime.optional().describe('When it is due, as an ISO date or date-time.'),
    notes: notes.optional().describe('Anything else worth remembering about it.'),
  })
  .strict();

const ListTasksInput = z
  .object({
    status: z.enum(['open', 'done', 'all']).optional().describe('Which tasks to list; open by default.'),
    query: z.string().trim().max(200).optional().describe('Words to look for in descriptions and notes.'),
  })
  .strict();

const UpdateTaskInput = z
  .object({
    id: taskId,
    description: description.optional(),
    due: isoDateOrDateTime.nullable().optional().describe('A new due date, or null to clear it.'),
    notes: notes.nullable().optional().describe('New notes, or null to clear them.'),
  })
  .strict()
  .refine(
    (input) => input.description !== undefined || input.due !== undefined || input.notes !== undefined,
    {
      message: 'give at least one of description, due or notes to change',
    },
  );

const TaskIdInput = z.object({ id: taskId }).strict();

const LIST_LIMIT = 50;

const TaskView = z.object({
  id: z.string(),
  description: z.string(),
  due: z.string().nullable(),
  notes: z.string().nullable(),
  status: z.enum(['open', 'done']),
  completedAt: z.string().nullable(),
});
const OneTaskOutput = z.object({ task: TaskView });
const ListTasksOutput = z.object({ tasks: z.array(TaskView), isTruncated: z.boolean() });
/** The deleted task's id, and what it said (older results have only the id). */
const DeletedOutput = z.object({ deleted: z.string(), description: z.string().optional() });

const taskView = (task: Task): Record<string, unknown> => ({
  id: task.id,
  description: task.description,
  due: task.due,
  notes: task.notes,
  status: task.status,
  completedAt: task.completedAt,
});

const field = (label: string, value: string | null | undefined): { label: string; value: string }[] =>
  value ? [{ label, value }] : [];

/**
 * A call's title for one task, as a person reads it: the task by its description (`Mark “Buy milk” as done`,
 * or `Change task “Buy milk”` with `isSaidAsTask`), or, when no task has the id, the action on "a task" and then
 * which id was not found. The id in the task's place ("Mark task nosuch as done") would read as its name.
 */
function titleFor(
  tasks: TasksRepo,
  id: string,
  title: (task: string) => string,
  isSaidAsTask = false,
): string {
  const description = tasks.get(id)?.description;
  if (description === undefined) return `${title('a task')} (no task has the id ${quoted(id)})`;
  return title(isSaidAsTask ? `task ${quoted(description)}` : quoted(description));
}

/**
 * What a card asking about one task shows beside its title, which already names the task: when it is due. Its
 * id is Deputy's own and says nothing to a person.
 */
function taskFields(tasks: TasksRepo, id: string): { label: string; value: string }[] {
  const due = tasks.get(id)?.due;
  return due ? [{ label: 'Due', value: describeDue(due) }] : [];
}

/** The task a call changes, named as the person would name it: the policy checks they asked about it. */
function taskTarget(tasks: TasksRepo, id: string): { recipients: []; target: string } {
  const task = tasks.get(id);
  return {
    recipients: [],
    target: task ? `the task ${quoted(task.description)}` : `the unknown task id ${quoted(id)}`,
  };
}

function notFound(id: string): ToolError {
  return new ToolError(
    'not_found',
    `No task has the id ${quoted(id)}.`,
    'Call list_tasks to see the current ids.',
  );
}

const TaskRecord = z.object({
  id: z.string(),
  description: z.string(),
  due: z.string().nullable(),
  notes: z.string().nullable(),
  status: z.enum(['open', 'done']),
  createdAt: z.string(),
  updatedAt: z.string(),
  completedAt: z.string().nullable(),
});

/** The task as it was before the call, read back from the audit trail for an undo. */
function taskBefore(before: unknown): Task {
  const parsed = TaskRecord.safeParse(before);
  if (!parsed.success) throw new ToolError('not_undoable', 'What the task was before is not on record.');
  return parsed.data;
}

/** The local task list: five tools over SQLite. `complete_task` is reserved for agent completion. */
export function createTaskTools(tasks: TasksRepo, now: () => Date): Tool[] {
  const stamp = (): string => now().toISOString();
  // Update, complete and delete each change one stored task: what it was is read first, and undo puts it back.
  const restoresTask = (
    isDeleted: boolean,
  ): Pick<Tool<{ id: string }>, 'before' | 'effect' | 'undo' | 'current'> => ({
    before: (input) => tasks.get(input.id),
    current: ({ input }) => tasks.get(input.id),
    effect: (input, _output, before) => ({
      entityType: 'task',
      entityId: input.id,
      before,
      // The stored task, in the same shape as `before`, so the two compare field by field.
      after: isDeleted ? null : tasks.get(input.id),
    }),
    undo: ({ before }) => ({ task: taskView(tasks.restore(taskBefore(before), stamp())) }),
  });
  const addTask: Tool<z.infer<typeof AddTaskInput>> = {
    name: 'add_task',
    description: "Add a task to the user's local task list.",
    input: AddTaskInput,
    output: OneTaskOutput,
    category: 'create',
    risk: 'low',
    hasSideEffects: true,
    isStoreOnly: true,
    actionKind: 'task.create',
    preview: (input) => ({
      title: `Add a task: ${input.description}`,
      fields: [
        ...field('Description', input.description),
        ...field('Due', input.due && describeDue(input.due)),
        ...field('Notes', input.notes),
      ],
    }),
    effect: (_input, output) => {
      const id = OneTaskOutput.safeParse(output).data?.task.id ?? null;
      return { entityType: 'task', entityId: id, before: null, after: id ? tasks.get(id) : null };
    },
    current: ({ entityId }) => (entityId ? tasks.get(entityId) : null),
    undo: ({ output }) => {
      const id = OneTaskOutput.parse(output).task.id;
      // Deleted since, by the person: what the undo wanted holds, and it says so.
      return { deleted: id, ...(!tasks.delete(id) && { wasAlreadyGone: true }) };
    },
    execute: (input) => ({
      task: taskView(
        tasks.add(
          {
            id: randomUUID(),
            description: input.description,
            due: input.due ?? null,
            notes: input.notes ?? null,
          },
          stamp(),
        ),
      ),
    }),
  };
  const listTasks: Tool<z.infer<typeof ListTasksInput>> = {
    name: 'list_tasks',
    description: "List the user's tasks, open ones by default, optionally filtered by words.",
    input: ListTasksInput,
    output: ListTasksOutput,
    category: 'query',
    risk: 'low',
    hasSideEffects: false,
    // Tasks are the person's list, but one may have been added from something Deputy read.
    provenance: (output) =>
      ListTasksOutput.parse(output).tasks.map((task) => ({
        label: `the task ${quoted(task.description)}`,
        text: [task.description, task.notes ?? ''].join('\n'),
      })),
    execute: (input) => {
      const found = tasks.list({ status: input.status ?? 'open', query: input.query, limit: LIST_LIMIT + 1 });
      return { tasks: found.slice(0, LIST_LIMIT).map(taskView), isTruncated: found.length > LIST_LIMIT };
    },
  };
  const updateTask: Tool<z.infer<typeof UpdateTaskInput>> = {
    name: 'update_task',
    description: "Change a task's description, due date or notes.",
    input: UpdateTaskInput,
    output: OneTaskOutput,
    category: 'update',
    risk: 'low',
    hasSideEffects: true,
    isStoreOnly: true,
    actionKind: 'task.update',
    reach: (input) => taskTarget(tasks, input.id),
    preview: (input) => {
      const task = tasks.get(input.id);
      // "(none)" says a field was empty; with no such task there is nothing before, and the card shows a dash.
      const change = (label: string, before: string | null | undefined, after: string | null | undefined) =>
        after === undefined
          ? []
          : [{ label, before: task ? (before ?? '(none)') : '', after: after ?? '(none)' }];
      return {
        title: titleFor(tasks, input.id, (named) => `Change ${named}`, true),
        fields: [],
        changes: [
          ...change('Description', task?.description, input.description),
          ...change('Due', task?.due && describeDue(task.due), input.due && describeDue(input.due)),
          ...change('Notes', task?.notes, input.notes),
        ],
      };
    },
    ...restoresTask(false),
    execute: (input) => {
      const { id, ...change } = input;
      const task = tasks.update(id, change, stamp());
      if (!task) throw notFound(id);
      return { task: taskView(task) };
    },
  };
  const markTaskComplete: Tool<z.infer<typeof TaskIdInput>> = {
    name: 'mark_task_complete',
    description: 'Mark a task as done.',
    input: TaskIdInput,
    output: OneTaskOutput,
    category: 'update',
    risk: 'low',
    hasSideEffects: true,
    isStoreOnly: true,
    actionKind: 'task.update',
    reach: (input) => taskTarget(tasks, input.id),
    preview: (input) => ({
      title: titleFor(tasks, input.id, (named) => `Mark ${named} as done`),
      fields: taskFields(tasks, input.id),
    }),
    ...restoresTask(false),
    execute: (input) => {
      const task = tasks.complete(input.id, stamp());
      if (!task) throw notFound(input.id);
      return { task: taskView(task) };
    },
  };
  const deleteTask: Tool<z.infer<typeof TaskIdInput>> = {
    name: 'delete_task',
    description: 'Delete a task for good.',
    input: TaskIdInput,
    output: DeletedOutput,
    category: 'delete',
    risk: 'medium',
    hasSideEffects: true,
    isStoreOnly: true,
    actionKind: 'task.delete',
    reach: (input) => taskTarget(tasks, input.id),
    preview: (input) => ({
      title: titleFor(tasks, input.id, (named) => `Delete ${named}`),
      fields: taskFields(tasks, input.id),
    }),
    ...restoresTask(true),
    execute: (input) => {
      const description = tasks.get(input.id)?.description;
      if (!tasks.delete(input.id)) throw notFound(input.id);
      return { deleted: input.id, description };
    },
  };
  return [addTask, listTasks, updateTask, markTaskComplete, deleteTask];
}
