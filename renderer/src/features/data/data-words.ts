import type { ContextStats, DataCompactResult } from '../../../../shared/contract';
import { formatBytes } from '../../format';

/** Settings → Data's sentences, kept apart from the components so they can be read (and tested) on their own. */

export const conversations = (count: number): string =>
  count === 1 ? '1 conversation' : `${count.toLocaleString()} conversations`;

export function pruneQuestion(threads: number, days: number): string {
  if (threads === 0) return `No conversation has been inactive for more than ${dayCount(days)}.`;
  const verb = threads === 1 ? 'has' : 'have';
  return `${conversations(threads)} ${verb} had no activity for more than ${dayCount(days)}. Delete ${
    threads === 1 ? 'it' : 'them'
  } for good? This cannot be undone.`;
}

export const pruneOutcome = (threads: number): string =>
  threads === 0 ? 'Nothing was deleted.' : `Deleted ${conversations(threads)}.`;

export function compactOutcome({ bytesBefore, bytesAfter }: DataCompactResult): string {
  const freed = bytesBefore - bytesAfter;
  if (freed <= 0)
    return `Compacted. The database still takes ${formatBytes(bytesAfter)}: there was no space to free.`;
  return `Compacted: ${formatBytes(bytesBefore)} → ${formatBytes(bytesAfter)}, ${formatBytes(freed)} freed.`;
}

/** The formats of "Export conversations", as its choice says them. */
export const EXPORT_FORMATS = {
  jsonl: {
    label: 'JSON lines',
    explanation: 'one conversation per line, with the time of each message, for other programs to read.',
  },
  md: { label: 'Markdown', explanation: 'one document to read, a heading for each conversation.' },
} as const;

export const exportProgress = (count: number): string =>
  count === 0 ? 'Exporting…' : `Exporting… ${conversations(count)}`;

export const exportOutcome = (count: number, bytes: number): string =>
  count === 0
    ? 'There are no conversations yet: the file saved is empty.'
    : `Saved ${conversations(count)} (${formatBytes(bytes)}).`;

const counted = (count: number, one: string, many: string): string =>
  count === 0 ? `no ${many}` : count === 1 ? `1 ${one}` : `${count.toLocaleString()} ${many}`;

/** "12 tasks and 40 memories", "no tasks and 1 memory". */
export const tasksAndMemories = (tasks: number, memories: number): string =>
  `${counted(tasks, 'task', 'tasks')} and ${counted(memories, 'memory', 'memories')}`;

export const tasksExportProgress = (tasks: number, memories: number): string =>
  tasks + memories === 0 ? 'Exporting…' : `Exporting… ${tasksAndMemories(tasks, memories)}`;

export const tasksExportOutcome = (tasks: number, memories: number, bytes: number): string =>
  tasks + memories === 0
    ? 'There are no tasks or memories yet: the file saved is empty.'
    : `Saved ${tasksAndMemories(tasks, memories)} (${formatBytes(bytes)}).`;

export const exportFailure = (why: string): string => `The export stopped, so the file was not saved. ${why}`;

const dayCount = (days: number): string => (days === 1 ? '1 day' : `${days.toLocaleString()} days`);

export const clearContextOutcome = (context: ContextStats): string =>
  `Cleared the context index (now ${formatBytes(context.bytes)}). It fills again from your connected accounts.`;

export function contextSummary(context: ContextStats): string {
  const parts = [
    `${context.contacts.toLocaleString()} ${context.contacts === 1 ? 'person' : 'people'}`,
    `${context.upcomingEvents.toLocaleString()} coming ${context.upcomingEvents === 1 ? 'event' : 'events'}`,
    `${context.vectors.toLocaleString()} ${context.vectors === 1 ? 'item' : 'items'} indexed by meaning`,
  ];
  if (context.recentMail > 0)
    parts.push(
      `${context.recentMail.toLocaleString()} recent ${context.recentMail === 1 ? 'mail' : 'mails'}`,
    );
  return parts.join(', ');
}

/** The opt-in to finding recent mail by meaning: what it reads, where it goes, where it stays. */
export const RECENT_MAIL_WORDS = {
  label: 'Also find my recent mail by meaning',
  hint:
    'Off unless you turn it on. When on, Deputy keeps the sender, subject and first line (the snippet Gmail ' +
    'shows) of your 200 newest received emails in the index, and sends each subject and snippet to Gemini ' +
    'once to turn it into a search vector. Never the rest of an email. The vectors stay on this computer; ' +
    'turning this off deletes them and the kept subjects at once.',
} as const;
