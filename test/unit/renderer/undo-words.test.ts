import { describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../../shared/contract';
import { undoQuestion } from '../../../renderer/src/features/audit/undo-words';

const entry = (actionType: string, entityBefore: unknown, entityAfter: unknown): AuditEntry =>
  ({ actionType, entityBefore, entityAfter }) as unknown as AuditEntry;

describe('the question before an undo that reaches outside Deputy', () => {
  it('says what the undo deletes or changes, and who is told', () => {
    expect(undoQuestion(entry('slack_send', null, { channel: '#team', ts: '1.2', text: 'Hi' }))).toEqual({
      question:
        'Delete this post from #team? People there may have read it already, and a deleted post cannot be brought back.',
      yes: 'Delete the post',
    });
    expect(undoQuestion(entry('slack_send', null, { channel: 'D0CAROL001', ts: '1.2' }))?.question).toMatch(
      /^Delete this post from Slack DM D0CAROL001\? /,
    );
    expect(undoQuestion(entry('gmail_draft_create', null, { to: ['a@example.com'] }))?.question).toBe(
      'Delete this draft? Gmail deletes it for good; it does not go to the trash.',
    );
    const guests = { attendees: [{ email: 'sam@example.com' }] };
    expect(undoQuestion(entry('calendar_event_create', null, { attendees: [] }))?.question).toBe(
      'Delete this event from your calendar?',
    );
    expect(undoQuestion(entry('calendar_event_create', null, guests))?.question).toBe(
      'Delete this event from your calendar? Its guests are told it is cancelled.',
    );
    expect(undoQuestion(entry('calendar_event_update', guests, { attendees: [] }))).toEqual({
      question: 'Put this event back as it was before? Its guests are told of the change.',
      yes: 'Put it back',
    });
  });

  it('asks nothing before an undo that stays on this computer', () => {
    for (const tool of ['add_task', 'update_task', 'delete_task', 'save_memory'])
      expect(undoQuestion(entry(tool, null, { id: 'x' }))).toBeNull();
  });
});
