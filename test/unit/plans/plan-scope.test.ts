import { describe, expect, it } from 'vitest';
import { fixedFieldsOf, isCovered, isPlaceholder, scopeOf } from '../../../electron/engine/plans/plan-scope';

describe('what a plan approval binds', () => {
  it('fixes only target fields with real values', () => {
    expect(fixedFieldsOf({ to: ['a@x.io'], body: 'hi', cc: '${find}', attendees: [] })).toEqual(['to']);
    expect(isPlaceholder('${step}')).toBe(true);
    expect(isPlaceholder('<from step 5>')).toBe(true);
    expect(isPlaceholder('alex@company.com')).toBe(false);
  });

  it('covers the same tool and targets, whatever the text and the case of an address', () => {
    const scope = scopeOf('gmail_send', { to: ['Alice@Example.com'], subject: 'x' });
    expect(isCovered(scope, 'gmail_send', { to: ['alice@example.com'], subject: 'other', body: 'b' })).toBe(
      true,
    );
  });

  it('does not cover an added cc, a changed recipient, a dropped one, or another tool', () => {
    const scope = scopeOf('gmail_send', { to: ['alice@example.com', 'bob@example.com'] });
    expect(
      isCovered(scope, 'gmail_send', {
        to: ['alice@example.com', 'bob@example.com'],
        cc: ['eve@evil.example'],
      }),
    ).toBe(false);
    expect(isCovered(scope, 'gmail_send', { to: ['alice@example.com', 'eve@evil.example'] })).toBe(false);
    expect(isCovered(scope, 'gmail_send', { to: ['alice@example.com'] })).toBe(false);
    expect(isCovered(scope, 'gmail_draft_create', { to: ['alice@example.com', 'bob@example.com'] })).toBe(
      false,
    );
  });

  it('a step that fixed no target covers no call that names one', () => {
    const scope = scopeOf('calendar_event_create', { summary: 'Budget', attendees: ['${find-alex}'] });
    expect(isCovered(scope, 'calendar_event_create', { summary: 'Budget' })).toBe(true);
    expect(
      isCovered(scope, 'calendar_event_create', { summary: 'Budget', attendees: ['alex@company.com'] }),
    ).toBe(false);
  });
});
