import type { CommandParsedInput, TasksAndMemoriesExportOutput } from '../../shared/contract';
import type {
  ExportMemoryRow,
  ExportTaskRow,
  TasksMemoriesExportRows,
} from '../store/tasks-memories-export-rows';
import { redactedJson } from '../vault/redactor';
import { isWrittenAsIs, notHandedOut } from './export-cursor';

/** How many tasks and memories one page holds at most (a memory is at most 2,000 characters). */
export const TASKS_MEMORIES_PAGE = 200;

type Place = { kind: 't' | 'm'; after: number };

/**
 * "Export tasks and memories": the task list, then what Deputy remembers, each in the order it was added, as JSON
 * lines with a `kind` ("task" or "memory") and the fields a person would want back. Every line passes the
 * redactor on the way out, as the other exports' do.
 */
export class TasksMemoriesExport {
  constructor(
    private readonly rows: TasksMemoriesExportRows,
    private readonly pageSize = TASKS_MEMORIES_PAGE,
  ) {}

  page(input: CommandParsedInput<'tasksAndMemories.export'>): TasksAndMemoriesExportOutput {
    const place = this.placeOf(input.cursor);
    const lines: string[] = [];
    let tasks = 0;
    if (place.kind === 't') {
      const rows = this.rows.tasksAfter(place.after, this.pageSize + 1);
      const written = rows.slice(0, this.pageSize);
      lines.push(...written.map(taskLine));
      tasks = written.length;
      const last = written.at(-1);
      if (rows.length > this.pageSize && last) return done(lines, `t${last.position}`, tasks, 0);
      if (tasks === this.pageSize) return done(lines, 'm0', tasks, 0);
    }
    const room = this.pageSize - tasks;
    const rows = this.rows.memoriesAfter(place.kind === 'm' ? place.after : 0, room + 1);
    const written = rows.slice(0, room);
    lines.push(...written.map(memoryLine));
    const last = written.at(-1);
    const next = rows.length > room && last ? `m${last.position}` : null;
    return done(lines, next, tasks, written.length);
  }

  /**
   * The contract has checked its form. Deputy writes each number as it is (no leading zero, none past what is
   * exact), never hands out `t0` (page one has no cursor) nor a memory past the last one ever kept.
   */
  private placeOf(cursor: string | undefined): Place {
    if (cursor === undefined) return { kind: 't', after: 0 };
    const kind = cursor[0] === 'm' ? 'm' : 't';
    const digits = cursor.slice(1);
    const after = Number(digits);
    const isOurs =
      isWrittenAsIs(digits) && (kind === 't' ? after > 0 : after <= this.rows.lastMemoryPosition());
    if (!isOurs) throw notHandedOut();
    return { kind, after };
  }
}

const done = (
  lines: string[],
  nextCursor: string | null,
  tasks: number,
  memories: number,
): TasksAndMemoriesExportOutput => ({
  text: lines.map((line) => `${line}\n`).join(''),
  nextCursor,
  tasks,
  memories,
});

const taskLine = ({ position: _, ...task }: ExportTaskRow): string => redactedJson({ kind: 'task', ...task });

const memoryLine = ({ position: _, ...memory }: ExportMemoryRow): string =>
  redactedJson({ kind: 'memory', ...memory });
