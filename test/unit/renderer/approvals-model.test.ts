import { describe, expect, it } from 'vitest';
import type { ApprovalsChangedEvent } from '../../../shared/contract';
import {
  applyApprovalsChanged,
  describeAge,
  describeExpiry,
  riskWords,
  describeWhere,
  emptySnapshot,
  fieldsBeyondTitle,
  findByAction,
  mergeApproval,
  quietArgs,
  rememberApprovals,
  shownStatus,
  staleApprovalIds,
} from '../../../renderer/src/features/approvals/approvals-model';
import { sampleApproval } from './fixtures';
import { TASKS_THREAD_ID } from '../../../shared/tasks-thread';

const changed = (event: Partial<ApprovalsChangedEvent>): ApprovalsChangedEvent => ({
  type: 'approvals.changed',
  pending: [],
  changed: null,
  ...event,
});

describe('the risk badge', () => {
  it('says the risk in sentence case, as the card’s other words are', () => {
    expect(riskWords('low')).toBe('Low risk');
    expect(riskWords('critical')).toBe('Critical risk');
  });
});

describe('what an approval card says below its title', () => {
  it('leaves out a field the title already ends with, and keeps the rest', () => {
    const field = (label: string, value: string) => ({ label, value });
    const shown = (title: string, fields: { label: string; value: string }[]) =>
      fieldsBeyondTitle({ title, fields }).map((item) => item.label);
    expect(
      shown('Add a task: Buy milk', [field('Description', 'Buy milk'), field('Due', '2026-11-27')]),
    ).toEqual(['Due']);
    expect(
      shown('Send an email to sam@example.com, kim@example.com', [
        field('To', 'sam@example.com, kim@example.com'),
        field('Subject', ''),
      ]),
    ).toEqual(['Subject']);
    // Words that merely end the title are not its object: the due date stays, labelled.
    expect(shown('Add a task: Pay rent 2026-11-27', [field('Due', '2026-11-27')])).toEqual(['Due']);
    expect(shown('Mark “Buy milk” as done', [field('Task', 'task-1')])).toEqual(['Task']);
  });
});

describe('approvals.changed', () => {
  it('takes the host’s pending list and remembers every approval it names', () => {
    const first = sampleApproval({ id: 'ap1' });
    const second = sampleApproval({ id: 'ap2', actionId: 'a2' });
    let snapshot = applyApprovalsChanged(emptySnapshot(), changed({ pending: [second, first] }));
    expect(snapshot.pending.map((approval) => approval.id)).toEqual(['ap2', 'ap1']);

    const approved = { ...first, status: 'approved' as const, decidedAt: '2026-11-21T10:01:00.000Z' };
    snapshot = applyApprovalsChanged(snapshot, changed({ pending: [second], changed: approved }));
    expect(snapshot.pending.map((approval) => approval.id)).toEqual(['ap2']);
    expect(snapshot.known.ap1?.status).toBe('approved');
    expect(snapshot.known.ap2?.status).toBe('pending');
  });

  it('never moves a decided approval back to pending', () => {
    const pending = sampleApproval();
    const rejected = { ...pending, status: 'rejected' as const };
    expect(mergeApproval(rejected, pending)).toBe(rejected);
    expect(mergeApproval(pending, rejected)).toBe(rejected);
    const snapshot = rememberApprovals(emptySnapshot(), [rejected]);
    // A late event, sent before the decision, still lists it: the window keeps the decision.
    const late = applyApprovalsChanged(snapshot, changed({ pending: [pending] }));
    expect(late.pending).toEqual([]);
    expect(late.known.ap1?.status).toBe('rejected');
  });

  it('names approvals held as pending that vanished from the list without an event saying why', () => {
    const snapshot = rememberApprovals(emptySnapshot(), [
      sampleApproval({ id: 'ap1' }),
      sampleApproval({ id: 'ap2' }),
      sampleApproval({ id: 'ap3', status: 'approved' }),
    ]);
    expect(staleApprovalIds(snapshot, changed({ pending: [sampleApproval({ id: 'ap2' })] }))).toEqual([
      'ap1',
    ]);
    expect(
      staleApprovalIds(
        snapshot,
        changed({ pending: [], changed: sampleApproval({ id: 'ap1', status: 'approved' }) }),
      ),
    ).toEqual(['ap2']);
  });

  it('finds the newest approval of an action', () => {
    const known = rememberApprovals(emptySnapshot(), [
      sampleApproval({ id: 'old', createdAt: '2026-11-21T10:00:00.000Z', status: 'approved' }),
      sampleApproval({ id: 'new', createdAt: '2026-11-21T10:05:00.000Z' }),
      sampleApproval({ id: 'other', actionId: 'a2' }),
    ]).known;
    expect(findByAction(known, 'a1')?.id).toBe('new');
    expect(findByAction(known, 'a9')).toBeUndefined();
  });
});

describe('where an approval was asked for', () => {
  it('names the conversation, an untitled one by its id’s tail, and the Tasks panel as itself', () => {
    expect(describeWhere('01j9-thread-0001', 'Plan the trip')).toBe('Plan the trip');
    expect(describeWhere('01j9-thread-0001', undefined)).toBe('Conversation …ead-0001');
    expect(describeWhere(TASKS_THREAD_ID, undefined)).toBe('From the Tasks panel');
  });
});

describe('time', () => {
  const at = (iso: string) => Date.parse(iso);

  it('shows a pending approval past its time as expired', () => {
    const approval = sampleApproval({ expiresAt: '2026-11-21T11:00:00.000Z' });
    expect(shownStatus(approval, at('2026-11-21T10:59:59Z'))).toBe('pending');
    expect(shownStatus(approval, at('2026-11-21T11:00:00Z'))).toBe('expired');
    expect(shownStatus({ ...approval, status: 'approved' }, at('2026-11-21T12:00:00Z'))).toBe('approved');
  });

  it('counts down in words: seconds under a minute, then whole minutes, past an hour too', () => {
    const expiry = (now: string) => describeExpiry('2026-11-21T12:00:00.000Z', at(now));
    expect(expiry('2026-11-21T11:59:15Z')).toBe('Expires in 45 s');
    expect(expiry('2026-11-21T11:59:00Z')).toBe('Expires in 1 min');
    // Rounded up, never less than is left: 4 min 5 s is "5 min", and never "4 min 5 s".
    expect(expiry('2026-11-21T11:55:55Z')).toBe('Expires in 5 min');
    expect(expiry('2026-11-21T11:56:00Z')).toBe('Expires in 4 min');
    expect(expiry('2026-11-21T11:30:01Z')).toBe('Expires in 30 min');
    // Past an hour, words, never a clock-like "1:05:00" or a time of day.
    expect(expiry('2026-11-21T11:00:00Z')).toBe('Expires in 1 h');
    expect(expiry('2026-11-21T10:55:00Z')).toBe('Expires in 1 h 5 min');
    expect(expiry('2026-11-21T10:54:30Z')).toBe('Expires in 1 h 6 min');
    expect(expiry('2026-11-21T09:00:00Z')).toBe('Expires in 3 h');
    expect(expiry('2026-11-20T11:00:00Z')).toBe('Expires in 1 day 1 h');
    expect(expiry('2026-11-18T12:00:00Z')).toBe('Expires in 3 days');
    expect(expiry('2026-11-21T12:00:01Z')).toBe('Expired');
    expect(describeExpiry('not a date', 0)).toBe('');
  });

  it('says how long ago an approval was asked for', () => {
    const now = at('2026-11-21T12:00:00Z');
    expect(describeAge('2026-11-21T11:59:30Z', now)).toBe('just now');
    expect(describeAge('2026-11-21T11:56:00Z', now)).toBe('4 min ago');
    expect(describeAge('2026-11-21T09:00:00Z', now)).toBe('3 h ago');
    expect(describeAge('2026-11-20T11:00:00Z', now)).toBe('1 day ago');
  });
});

describe('approve without notifying anyone', () => {
  const update = (overrides: Parameters<typeof sampleApproval>[0] = {}) =>
    sampleApproval({
      tool: 'calendar_event_update',
      args: { eventId: 'e1', location: 'Room 4' },
      argsSchema: { type: 'object', properties: { eventId: {}, location: {}, notify: { type: 'boolean' } } },
      preview: {
        title: 'Change “Budget review”',
        fields: [],
        reach: [{ address: 'client@partner.io', role: 'attendee, told of the change' }],
      },
      ...overrides,
    });

  it('offers the same call with notify off when the tool has a quiet version and someone would be told', () => {
    expect(quietArgs(update())).toEqual({ eventId: 'e1', location: 'Room 4', notify: false });
  });

  it('offers nothing when nobody would be told, the call is already quiet, or the tool has no quiet version', () => {
    expect(quietArgs(update({ preview: { title: 'x', fields: [] } }))).toBeNull();
    expect(quietArgs(update({ args: { eventId: 'e1', notify: false } }))).toBeNull();
    expect(quietArgs(update({ argsSchema: { type: 'object', properties: { eventId: {} } } }))).toBeNull();
  });
});
