import { redactNullable, redactSecrets } from '../vault/redactor';
import { ChangeListeners } from '../../shared/change-listeners';
import type { Db } from './database';

export interface Task {
  id: string;
  description: string;
  due: string | null;
  notes: string | null;
  status: 'open' | 'done';
  createdAt: string;
  updatedAt: string;
  completedAt: string | null;
}

interface TaskRow {
  id: string;
  description: string;
  due: string | null;
  notes: string | null;
  status: 'open' | 'done';
  created_at: string;
  updated_at: string;
  completed_at: string | null;
}

const toTask = (row: TaskRow): Task => ({
  id: row.id,
  description: row.description,
  due: row.due,
  notes: row.notes,
  status: row.status,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  completedAt: row.completed_at,
});

export type TaskFilter = { status: 'open' | 'done' | 'all'; query?: string; limit: number };
/** A list's words (empty for all), as a LIKE pattern too, and how many rows. */
type TaskQuery = { query: string; pattern: string; limit: number };

export class TasksRepo {
  private readonly insertTask;
  private readonly selectOne;
  private readonly updateTask;
  private readonly completeTask;
  private readonly deleteTask;
  private readonly selectByStatus;
  private readonly selectAll;
  private readonly upsertTask;
  private readonly listeners = new ChangeListeners();

  constructor(db: Db) {
    this.insertTask = db.prepare(
      `INSERT INTO tasks (id, description, due, notes, status, created_at, updated_at)
       VALUES (?, ?, ?, ?, 'open', ?, ?)`,
    );
    this.selectOne = db.prepare<[string], TaskRow>('SELECT * FROM tasks WHERE id = ?');
    this.updateTask = db.prepare(
      'UPDATE tasks SET description = ?, due = ?, notes = ?, updated_at = ? WHERE id = ?',
    );
    this.completeTask = db.prepare(
      `UPDATE tasks SET status = 'done', completed_at = COALESCE(completed_at, ?), updated_at = ? WHERE id = ?`,
    );
    this.deleteTask = db.prepare('DELETE FROM tasks WHERE id = ?');
    this.upsertTask = db.prepare(
      `INSERT INTO tasks (id, description, due, notes, status, created_at, updated_at, completed_at)
       VALUES (@id, @description, @due, @notes, @status, @createdAt, @now, @completedAt)
       ON CONFLICT (id) DO UPDATE SET description = excluded.description, due = excluded.due,
         notes = excluded.notes, status = excluded.status, updated_at = excluded.updated_at,
         completed_at = excluded.completed_at`,
    );
    // LIKE with an escape character, so a query containing % or _ matches itself. The casts keep the statements
    // planned once (see database.ts). Open or done tasks are found through tasks_by_status: the open ones (what
    // a run lists) are few, while done tasks pile up for as long as Deputy is used.
    const matching = `(CAST(@query AS TEXT) = '' OR description LIKE CAST(@pattern AS TEXT) ESCAPE '\\'
           OR notes LIKE CAST(@pattern AS TEXT) ESCAPE '\\')`;
    this.selectByStatus = db.prepare<[TaskQuery & { status: string }], TaskRow>(
      `SELECT * FROM tasks WHERE status = CAST(@status AS TEXT) AND ${matching}
       ORDER BY COALESCE(due, '9999'), created_at LIMIT CAST(@limit AS INTEGER)`,
    );
    this.selectAll = db.prepare<[TaskQuery], TaskRow>(
      `SELECT * FROM tasks WHERE ${matching}
       ORDER BY status = 'done', COALESCE(due, '9999'), created_at LIMIT CAST(@limit AS INTEGER)`,
    );
  }

  add(
    task: { id: string; description: string; due: string | null; notes: string | null },
    now: string,
  ): Task {
    // A task is written by the model's call (kept as written to run as approved): the row is still redacted.
    this.insertTask.run(
      task.id,
      redactSecrets(task.description),
      task.due,
      redactNullable(task.notes),
      now,
      now,
    );
    this.listeners.notify();
    return this.getOrThrow(task.id);
  }

  get(id: string): Task | null {
    const row = this.selectOne.get(id);
    return row ? toTask(row) : null;
  }

  update(
    id: string,
    change: { description?: string; due?: string | null; notes?: string | null },
    now: string,
  ): Task | null {
    const task = this.get(id);
    if (!task) return null;
    this.updateTask.run(
      redactSecrets(change.description ?? task.description),
      change.due === undefined ? task.due : change.due,
      redactNullable(change.notes === undefined ? task.notes : change.notes),
      now,
      id,
    );
    this.listeners.notify();
    return this.getOrThrow(id);
  }

  complete(id: string, now: string): Task | null {
    if (this.completeTask.run(now, now, id).changes === 0) return null;
    this.listeners.notify();
    return this.getOrThrow(id);
  }

  /** Puts a task back exactly as it was (an undo): re-created if it was deleted, its fields restored if not. */
  restore(task: Task, now: string): Task {
    this.upsertTask.run({
      id: task.id,
      description: redactSecrets(task.description),
      due: task.due,
      notes: redactNullable(task.notes),
      status: task.status,
      createdAt: task.createdAt,
      completedAt: task.completedAt,
      now,
    });
    this.listeners.notify();
    return this.getOrThrow(task.id);
  }

  delete(id: string): boolean {
    if (this.deleteTask.run(id).changes === 0) return false;
    this.listeners.notify();
    return true;
  }

  /**
   * Calls `listener` after each task added, edited, completed, restored or deleted (the context index embeds the
   * open tasks soon). Answers a function that stops the calls.
   */
  onChange(listener: () => void): () => void {
    return this.listeners.add(listener);
  }

  list(filter: TaskFilter): Task[] {
    const query = filter.query?.trim() ?? '';
    const pattern = `%${query.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const rows =
      filter.status === 'all'
        ? this.selectAll.all({ query, pattern, limit: filter.limit })
        : this.selectByStatus.all({ status: filter.status, query, pattern, limit: filter.limit });
    return rows.map(toTask);
  }

  private getOrThrow(id: string): Task {
    const task = this.get(id);
    if (!task) throw new Error(`task ${id} vanished inside its own transaction`);
    return task;
  }
}
