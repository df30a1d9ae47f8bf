import type { TaskItem } from '../../../../shared/contract';

/** "Due Wed 25 Nov", "Due Wed 25 Nov, 09:00", or null when it has no due date. */
export function dueWords(task: TaskItem): string | null {
  if (!task.due) return null;
  const hasTime = task.due.includes('T');
  const date = new Date(hasTime ? task.due : `${task.due}T12:00:00`);
  if (Number.isNaN(date.getTime())) return `Due ${task.due}`;
  const day = date.toLocaleDateString(undefined, { weekday: 'short', day: 'numeric', month: 'short' });
  return hasTime
    ? `Due ${day}, ${date.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' })}`
    : `Due ${day}`;
}

/** The due value for a date or datetime-local input ("2026-11-25" or "2026-11-25T09:00"). */
export const dueInput = (due: string | null): string => (due ? due.slice(0, 16) : '');
