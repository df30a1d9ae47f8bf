import type { GoogleAccess } from '../../connections/access';
import { calendarCaller, type CalendarToolOptions } from './calendar-api';
import { createCalendarReadTools } from './calendar-read-tools';
import { createCalendarWriteTools } from './calendar-write-tools';
import type { Tool } from '../tool';

export type { CalendarToolOptions } from './calendar-api';
export { DEPUTY_KEY_PROPERTY } from './calendar-events';

/** Google Calendar for the agent: search, free slots across people, create and update events. */
export function createCalendarTools(access: GoogleAccess, options: CalendarToolOptions): Tool[] {
  const call = calendarCaller(access, options.now);
  return [...createCalendarReadTools(call, options), ...createCalendarWriteTools(call, options)];
}
