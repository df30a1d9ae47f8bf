import type { AuditEntry } from '../../../../shared/contract';
import { slackChannelNamed } from '../../../../shared/tool-summaries';
import { asRecord } from './audit-words';

const hasGuests = (event: unknown): boolean => {
  const attendees = asRecord(event).attendees;
  return Array.isArray(attendees) && attendees.length > 0;
};

/** What the person is asked before an undo that reaches outside Deputy, and the button that says yes. */
export interface UndoQuestion {
  question: string;
  yes: string;
}

/**
 * The question asked before an undo whose own effect reaches outside Deputy and cannot itself be undone:
 * deleting a Slack post people may have read, a Gmail draft for good, an event its guests are told about.
 * Null for an undo that stays on this computer (a task, a memory), which runs at once.
 */
export function undoQuestion(
  entry: Pick<AuditEntry, 'actionType' | 'entityAfter' | 'entityBefore' | 'output'>,
): UndoQuestion | null {
  const after = asRecord(entry.entityAfter);
  switch (entry.actionType) {
    case 'slack_send': {
      // A channel given by Slack's id reads as Slack named it when the post's result says ("from #random"), else
      // as what it is ("from Slack DM D0123ABCD"). The name is read from the result, never kept in the effect's
      // `after`: that is what an undo compares with the post as it is now.
      const channel =
        typeof after.channel === 'string'
          ? ` from ${slackChannelNamed(after.channel, { result: entry.output })}`
          : '';
      return {
        question: `Delete this post${channel}? People there may have read it already, and a deleted post cannot be brought back.`,
        yes: 'Delete the post',
      };
    }
    case 'gmail_draft_create':
      return {
        question: 'Delete this draft? Gmail deletes it for good; it does not go to the trash.',
        yes: 'Delete the draft',
      };
    case 'calendar_event_create':
      return {
        question: `Delete this event from your calendar?${hasGuests(after) ? ' Its guests are told it is cancelled.' : ''}`,
        yes: 'Delete the event',
      };
    case 'calendar_event_update':
      return {
        question: `Put this event back as it was before?${hasGuests(entry.entityBefore) || hasGuests(after) ? ' Its guests are told of the change.' : ''}`,
        yes: 'Put it back',
      };
    default:
      return null;
  }
}

/** Whether an undo of this tool's action asks first (its button then says "Undo…"). */
export const asksBeforeUndo = (tool: string): boolean =>
  undoQuestion({ actionType: tool, entityAfter: null, entityBefore: null, output: null }) !== null;
