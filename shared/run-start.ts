import type { RunEvent } from './contract';

/**
 * A run's first event, sent once when it is created: `queued` with no place in line. A `queued` with one is a wait
 * for a slot (at its start, or again when it resumes after an approval), so a replay from the run's start, and
 * only it, begins with this event.
 */
export const isRunStart = (event: RunEvent | undefined): boolean =>
  event?.type === 'status' && event.status === 'queued' && event.queuePosition === undefined;
