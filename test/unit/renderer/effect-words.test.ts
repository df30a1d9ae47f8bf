import { describe, expect, it } from 'vitest';
import { timeWords } from '../../../renderer/src/features/audit/audit-words';
import { diffRows } from '../../../renderer/src/features/audit/effect-words';

const rowsOf = (before: unknown, after: unknown) =>
  diffRows(before, after).map((row) => [row.label, row.before, row.after]);

describe('what an action changed, as the audit viewer names it', () => {
  it('a Slack post: its time in words with Slack’s id for it, and whether it is a reply', () => {
    const at = timeWords('2025-11-28T06:45:45.000Z');
    expect(
      rowsOf(null, { channel: '#general', ts: '1764312345.000100', threadTs: null, text: 'Pizza at noon.' }),
    ).toEqual([
      ['Channel', '—', '#general'],
      ['Posted at', '—', `${at} (its id in Slack: 1764312345.000100)`],
      ['Thread', '—', '—'],
      ['Text', '—', 'Pizza at noon.'],
    ]);
    const reply = rowsOf(null, { ts: '1764312399.000200', threadTs: '1764312345.000100' });
    expect(reply[1]).toEqual([
      'Thread',
      '—',
      `A reply to the post of ${at} (its id in Slack: 1764312345.000100)`,
    ]);
    // A value that is not Slack's time stays as it is.
    expect(rowsOf(null, { ts: 'soon' })).toEqual([['Posted at', '—', 'soon']]);
  });

  it('a mail, an event and a memory: their fields in words, a yes or no as such', () => {
    const mail = rowsOf(null, {
      to: ['ana@example.com'],
      subject: 'Hi',
      rfc822MessageId: '<deputy.1@deputy.local>',
      threadId: '18f0',
      replyToMessageId: 'm0',
    });
    expect(mail.map(([label]) => label)).toEqual(['To', 'Subject', 'Message-ID', 'Thread', 'In reply to']);
    expect(mail[2]).toEqual(['Message-ID', '—', '<deputy.1@deputy.local>']);
    const event = rowsOf(
      { summary: 'Standup', isAllDay: false, attendees: [], organizer: 'ana@example.com' },
      { summary: 'Standup', isAllDay: true, attendees: [], organizer: 'ana@example.com' },
    );
    expect(event.map(([label]) => label)).toEqual(['Title', 'All day', 'Guests', 'Organiser']);
    expect(event[1]).toEqual(['All day', 'No', 'Yes']);
    expect(rowsOf(null, { text: 'Ana is my sister', isConfirmed: false })).toEqual([
      ['Text', '—', 'Ana is my sister'],
      ['Confirmed by you', '—', 'No'],
    ]);
    expect(rowsOf({ due: null }, { due: '2026-12-01' })).toEqual([['Due date', '—', '2026-12-01']]);
  });
});
