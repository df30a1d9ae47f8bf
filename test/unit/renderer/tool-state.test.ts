import { describe, expect, it } from 'vitest';
import {
  applyRunEvent,
  emptyConversation,
  type Conversation,
} from '../../../renderer/src/features/chat/timeline';
import {
  cancelledReason,
  isUnsureAfterEnding,
  refusedCallLabel,
  toolStateLabel,
} from '../../../renderer/src/features/chat/tool-state';
import { sampleApproval } from './fixtures';

describe('tool-call card labels', () => {
  it('uses the ledger state where it says more than the coarse one', () => {
    expect(toolStateLabel('executing', 'started')).toBe('Running');
    expect(toolStateLabel('executing', 'approved')).toBe('Approved');
    expect(toolStateLabel('completed', 'committed')).toBe('Done');
    expect(toolStateLabel('awaiting_confirmation', 'unknown')).toBe('Not sure it happened — waiting for you');
  });

  it('says a call that may have happened is not sure, and waits for the person only while they are asked', () => {
    const unknown = { ledgerState: 'unknown' as const };
    // Asked again after a restart: its approval is pending, and the card is that question.
    expect(isUnsureAfterEnding(unknown, sampleApproval({ status: 'pending' }))).toBe(false);
    // Its run ended around it (approved, or never asked): nothing waits, the card says "Not sure it happened".
    expect(isUnsureAfterEnding(unknown, sampleApproval({ status: 'approved' }))).toBe(true);
    expect(isUnsureAfterEnding(unknown, undefined)).toBe(true);
    expect(isUnsureAfterEnding({ ledgerState: 'committed' }, undefined)).toBe(false);
  });

  it('keeps the coarse labels when the ledger adds nothing or is not known', () => {
    expect(toolStateLabel('awaiting_confirmation', 'awaiting_confirmation')).toBe('Waiting for approval');
    expect(toolStateLabel('failed', 'failed')).toBe('Failed');
    expect(toolStateLabel('rejected')).toBe('Turned down');
    expect(toolStateLabel('planned')).toBe('Planned');
    expect(toolStateLabel('executing')).toBe('Running');
    expect(toolStateLabel('completed')).toBe('Done');
  });

  it('drops a stored ledger state once the stream moves the card on', () => {
    const ids = { runId: 'r1', threadId: 't1' };
    const stored: Conversation = {
      ...emptyConversation('t1'),
      items: [
        {
          kind: 'tool',
          id: 'a1',
          runId: 'r1',
          tool: 'gmail_send',
          args: { to: 'sam@x.io' },
          state: 'executing',
          ledgerState: 'approved',
        },
      ],
    };
    const started = applyRunEvent(stored, {
      type: 'tool_call',
      ...ids,
      actionId: 'a1',
      tool: 'gmail_send',
      args: { to: 'sam@x.io' },
      state: 'executing',
    });
    expect(started.items[0]).toMatchObject({ state: 'executing' });
    expect(started.items[0]).not.toHaveProperty('ledgerState');

    const done = applyRunEvent(stored, {
      type: 'tool_result',
      ...ids,
      actionId: 'a1',
      tool: 'gmail_send',
      state: 'completed',
      result: { id: 'msg-1' },
    });
    expect(done.items[0]).toMatchObject({ state: 'completed', result: { id: 'msg-1' } });
    expect(done.items[0]).not.toHaveProperty('ledgerState');
  });
});

describe('a refused call, in the audit trail’s words', () => {
  it('was turned down when it asked and was told no, and not done when it never asked or was paused', () => {
    expect(refusedCallLabel(true, sampleApproval({ status: 'rejected' }))).toBe('Turned down');
    // Said no to a moment before this window heard of the decision.
    expect(refusedCallLabel(true, sampleApproval({ status: 'pending' }))).toBe('Turned down');
    // The policy blocked it, or held it back to ask what the person meant: nobody was asked.
    expect(refusedCallLabel(false, undefined)).toBe('Not done');
    // Approved, then side effects were paused before it ran.
    expect(refusedCallLabel(true, sampleApproval({ status: 'approved' }))).toBe('Not done');
  });
});

describe('a cancelled call’s note', () => {
  it('gives the reason only: the card, or its plan step, already says "Cancelled"', () => {
    expect(cancelledReason('Cancelled: you cancelled the plan.')).toBe('You cancelled the plan.');
    expect(
      cancelledReason('Cancelled: you sent a new message while this was waiting for your approval.'),
    ).toBe('You sent a new message while this was waiting for your approval.');
    // Words with no such prefix stay as they are.
    expect(cancelledReason('The call was stopped because the run was cancelled.')).toBe(
      'The call was stopped because the run was cancelled.',
    );
    expect(cancelledReason('Cancelled:')).toBeNull();
    expect(cancelledReason(undefined)).toBeNull();
  });
});
