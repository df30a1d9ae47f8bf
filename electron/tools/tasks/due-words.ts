import { describeWallTime } from '../calendar/calendar-events';

/**
 * A task's due date or date-time as an approval card says it, the way the calendar's cards say a day:
 * "2026-12-10" → "Thu, 10 Dec 2026", "2026-12-10T09:00" → "Thu, 10 Dec 2026, 09:00" (the time as written).
 * A value that is not a real date is said as it is, rather than as another day.
 */
export function describeDue(due: string): string {
  return describeWallTime(due) ?? due;
}
