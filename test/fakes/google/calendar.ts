import type { FakeHandler } from '../http-kit';

/** Placeholder: the Calendar work replaces this with a stateful subset of Calendar v3. */
export type CalendarFakeState = Record<string, never>;

export function createCalendarFake(): { handler: FakeHandler; state: CalendarFakeState } {
  return { handler: () => null, state: {} };
}
