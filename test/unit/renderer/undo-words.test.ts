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

  it('names a post’s channel given by id as Slack named it when the post’s result says, not from its after', () => {
    const posted = (output: unknown) =>
      ({
        actionType: 'slack_send',
        entityBefore: null,
        entityAfter: { channel: 'C0RANDOM01', ts: '1.2', threadTs: null, text: 'Hi' },
        output,
      }) as unknown as AuditEntry;
    const named = { channel: { id: 'C0RANDOM01', label: 'C0RANDOM01', name: '#random' }, ts: '1.2' };
    expect(undoQuestion(posted(named))?.question).toMatch(/^Delete this post from #random\? /);
    const dm = { channel: { id: 'D0CAROL001', label: 'D0CAROL001', name: 'Slack DM with carol.c' } };
    expect(undoQuestion({ ...posted(dm), entityAfter: { channel: 'D0CAROL001' } })?.question).toMatch(
      /^Delete this post from Slack DM with carol\.c\? /,
    );
    // A result from before names were kept, or one Slack did not name: the id's words, as before.
    for (const output of [
      { channel: { id: 'C0RANDOM01', label: 'C0RANDOM01' } },
      null,
      '{"channel"',
      { channel: { name: 7 } },
    ])
      expect(undoQuestion(posted(output))?.question).toMatch(
        /^Delete this post from Slack channel C0RANDOM01\? /,
      );
  });

  it('asks nothing before an undo that stays on this computer', () => {
    for (const tool of ['add_task', 'update_task', 'delete_task', 'save_memory'])
      expect(undoQuestion(entry(tool, null, { id: 'x' }))).toBeNull();
  });
});
