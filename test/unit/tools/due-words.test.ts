import { describe, expect, it } from 'vitest';
import { describeDue } from '../../../electron/tools/tasks/due-words';

describe('a task’s due date on an approval card', () => {
  it('is said as the calendar’s cards say a day, with the time as written', () => {
    expect(describeDue('2026-12-10')).toBe('Thu, 10 Dec 2026');
    expect(describeDue('2026-12-10T09:00')).toBe('Thu, 10 Dec 2026, 09:00');
    expect(describeDue('2026-12-10T23:30:00+05:00')).toBe('Thu, 10 Dec 2026, 23:30');
  });

  it('says what does not read as a day as it is, rather than another day', () => {
    expect(describeDue('2026-02-31')).toBe('2026-02-31');
    expect(describeDue('next Friday')).toBe('next Friday');
  });
});
