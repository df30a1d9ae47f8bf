import type { Memory } from '../../shared/contract';
import type { Task } from '../store/tasks-repo';
import type { MailItem } from './recent-mail';
import type { ContextItem, ContextSource } from './context-rank';
import type { Gathered } from './context-sources';
import type { SemanticSearch } from './semantic-index';

export interface SearchedBy {
  gathered: Gathered;
  /** How it was searched: `fts` means by words only, and `note` says why. */
  how: { mode: 'hybrid' | 'fts'; note: string | null };
}

/** One semantic search as context items; a failure is reported as the source being unavailable, never thrown. */
export async function searchBy<T>(
  search: (query: string, limit: number, signal: AbortSignal) => Promise<SemanticSearch<T>>,
  query: string,
  toItem: (item: T) => ContextItem,
  source: ContextSource,
  signal: AbortSignal,
): Promise<SearchedBy> {
  try {
    const found = await search(query, 10, signal);
    return {
      gathered: { items: found.matches.map(({ item }) => toItem(item)) },
      how: { mode: found.mode, note: found.note },
    };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { gathered: { unavailable: { source, reason } }, how: { mode: 'fts', note: reason } };
  }
}

export const memoryItem = (memory: Memory): ContextItem => ({
  source: 'memory',
  // A memory the person confirmed is their word; any other is content whose source may be anyone.
  label: 'a memory you have not confirmed',
  title: memory.text,
  detail: '',
  at: memory.updatedAt,
  isConfirmed: memory.confirmedAt !== null,
});

/** Labelled as list_tasks labels a task, so the policy reads it the same way whichever tool found it. */
export const taskItem = (task: Task): ContextItem => ({
  source: 'tasks',
  label: `the task “${task.description}”`,
  title: task.description,
  detail: [task.due ? `due ${task.due}` : '', task.notes ?? ''].filter(Boolean).join('; '),
  at: task.due,
  isConfirmed: false,
});

/** Labelled as gmail_search labels a mail: content from outside, whoever sent it. */
export const mailItem = (mail: MailItem): ContextItem => ({
  source: 'gmail',
  label: `a mail from ${mail.sender.trim() || 'an unknown sender'}${mail.subject ? ` (“${mail.subject}”)` : ''}`,
  title: mail.subject || '(no subject)',
  detail: `from ${mail.sender}: ${mail.snippet}`,
  at: mail.at,
  isConfirmed: false,
});
