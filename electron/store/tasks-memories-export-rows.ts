import type { MemoryOrigin } from '../../shared/contract';
import type { Db } from './database';

/** A task as "Export tasks and memories" writes it: `position` is its place in the store, which only grows. */
export interface ExportTaskRow {
  position: number;
  id: string;
  description: string;
  notes: string | null;
  due: string | null;
  status: 'open' | 'done';
  createdAt: string;
  updatedAt: string;
  completedAt: string | null;
}

/** A memory as the export writes it: `position` is its `seq`, never given twice. */
export interface ExportMemoryRow {
  position: number;
  id: string;
  text: string;
  origin: MemoryOrigin;
  source: string | null;
  confirmedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/**
 * The reads of "Export tasks and memories": tasks, then memories, each in the order they were added (their rowid),
 * a bounded batch at a time from where the last page stopped, so a cursor stays good while either list changes.
 */
export class TasksMemoriesExportRows {
  private readonly selectTasks;
  private readonly selectMemories;
  private readonly selectLastMemory;

  constructor(db: Db) {
    this.selectTasks = db.prepare<[number, number], ExportTaskRow>(
      `SELECT rowid AS position, id, description, notes, due, status, created_at AS createdAt,
         updated_at AS updatedAt, completed_at AS completedAt
       FROM tasks WHERE rowid > ? ORDER BY rowid LIMIT ?`,
    );
    this.selectMemories = db.prepare<[number, number], ExportMemoryRow>(
      `SELECT seq AS position, id, text, origin, source, confirmed_at AS confirmedAt, created_at AS createdAt,
         updated_at AS updatedAt
       FROM memories WHERE seq > ? ORDER BY seq LIMIT ?`,
    );
    this.selectLastMemory = db
      .prepare<[], number>("SELECT seq FROM sqlite_sequence WHERE name = 'memories'")
      .pluck();
  }

  /** At most `limit` tasks added after the one at `position` (0: from the first). */
  tasksAfter(position: number, limit: number): ExportTaskRow[] {
    return this.selectTasks.all(position, limit);
  }

  /** At most `limit` memories added after the one at `position` (0: from the first). */
  memoriesAfter(position: number, limit: number): ExportMemoryRow[] {
    return this.selectMemories.all(position, limit);
  }

  /** The highest `seq` a memory was ever given, 0 before the first. */
  lastMemoryPosition(): number {
    return this.selectLastMemory.get() ?? 0;
  }
}
