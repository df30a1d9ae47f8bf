import { describe, expect, it } from 'vitest';
import type { Approval } from '../../../shared/contract';
import { ClientError } from '../../../renderer/src/api/client-error';
import { createApprovalsStore } from '../../../renderer/src/features/approvals/approvals-store';
import { fakeClient, sampleApproval, sampleResponse } from './fixtures';

const pendingEvent = (pending: Approval[], changed: Approval | null = null) =>
  ({ type: 'approvals.changed', pending, changed }) as const;

describe('approvals store', () => {
  it('follows approvals.changed and stops when disconnected', () => {
    const fake = fakeClient();
    const store = createApprovalsStore(fake.client);
    const disconnect = store.getState().connect();
    expect(store.getState().hasPendingList).toBe(false);
    fake.emit('approvals.changed', pendingEvent([sampleApproval()]));
    expect(store.getState().pending.map((approval) => approval.id)).toEqual(['ap1']);
    expect(store.getState().hasPendingList).toBe(true);
    disconnect();
    expect(fake.subscribers('approvals.changed')).toBe(0);
  });

  it('reads a looked-up conversation title again when approvals change, so a rename shows', async () => {
    const AT = '2026-01-01T00:00:00.000Z';
    let title = 'Add a task to buy milk';
    const fake = fakeClient({
      'threads.list': async () => ({
        threads: [{ id: 't1', title, createdAt: AT, updatedAt: AT, lastRunStatus: null }],
        nextBefore: null,
      }),
    });
    const store = createApprovalsStore(fake.client);
    store.getState().connect();
    await store.getState().lookUpThreadTitle('t1');
    expect(store.getState().threadTitles).toEqual({ t1: 'Add a task to buy milk' });
    title = 'Groceries';
    // Asked again, a title already known is not re-read…
    await store.getState().lookUpThreadTitle('t1');
    expect(store.getState().threadTitles.t1).toBe('Add a task to buy milk');
    // …but an approvals change reads it again.
    fake.emit('approvals.changed', pendingEvent([sampleApproval()]));
    await expect.poll(() => store.getState().threadTitles.t1).toBe('Groceries');
  });

  it('approves, shows the decision at once, and keeps buttons busy while it is in flight', async () => {
    let answer: () => void = () => undefined;
    const fake = fakeClient({
      'approval.decide': () =>
        new Promise((resolve) => (answer = () => resolve(sampleResponse({ summary: 'Added it.' })))),
    });
    const store = createApprovalsStore(fake.client);
    store.getState().remember(sampleApproval());

    const decided = store.getState().decide({
      approvalId: 'ap1',
      decision: 'approve',
      alwaysAllow: { field: 'description', pattern: '*' },
    });
    expect(store.getState().activity.ap1?.inFlight).toBe('approve');
    // A second click while the first is in flight sends nothing.
    expect(await store.getState().decide({ approvalId: 'ap1', decision: 'reject' })).toBe(false);
    answer();
    expect(await decided).toBe(true);
    expect(fake.calls).toEqual([
      {
        channel: 'approval.decide',
        input: {
          approvalId: 'ap1',
          decision: 'approve',
          alwaysAllow: { field: 'description', pattern: '*' },
        },
      },
    ]);
    expect(store.getState().activity.ap1).toMatchObject({ inFlight: null, accepted: 'approve', error: null });
    expect(store.getState().known.ap1?.status).toBe('approved');
  });

  it('shows a decision someone else made first, and reads the approval again', async () => {
    const fake = fakeClient({
      'approval.decide': () =>
        Promise.reject(new ClientError('approval_decided', 'This approval was already rejected.')),
      'approval.list': async () => ({
        approvals: [sampleApproval({ status: 'rejected', decisionNote: 'from the tray' })],
      }),
    });
    const store = createApprovalsStore(fake.client);
    store.getState().remember(sampleApproval());
    expect(await store.getState().decide({ approvalId: 'ap1', decision: 'approve' })).toBe(false);
    expect(store.getState().activity.ap1?.error).toBe('This approval was already rejected.');
    expect(store.getState().known.ap1).toMatchObject({ status: 'rejected', decisionNote: 'from the tray' });
    expect(fake.calls.map((call) => call.channel)).toEqual(['approval.decide', 'approval.list']);
    expect(fake.calls[1]?.input).toMatchObject({ status: 'all' });
  });

  it('marks an approval the host calls expired as expired', async () => {
    const fake = fakeClient({
      'approval.decide': () => Promise.reject(new ClientError('approval_expired', 'This approval expired.')),
      'approval.list': async () => ({ approvals: [] }),
    });
    const store = createApprovalsStore(fake.client);
    store.getState().remember(sampleApproval());
    await store.getState().decide({ approvalId: 'ap1', decision: 'reject', reason: 'no' });
    expect(store.getState().known.ap1?.status).toBe('expired');
  });

  it('keeps the editor’s invalid_input for the editor and records an accepted edit', async () => {
    let isValid = false;
    const fake = fakeClient({
      'approval.edit': async () => {
        if (!isValid) throw new ClientError('invalid_input', 'description: must not be empty');
        return sampleResponse();
      },
    });
    const store = createApprovalsStore(fake.client);
    store.getState().remember(sampleApproval());
    expect(await store.getState().edit('ap1', { description: '' })).toBe(false);
    expect(store.getState().activity.ap1).toMatchObject({
      editError: 'description: must not be empty',
      error: null,
      inFlight: null,
    });
    expect(store.getState().known.ap1?.status).toBe('pending');
    store.getState().clearEditError('ap1');
    expect(store.getState().activity.ap1?.editError).toBeNull();

    isValid = true;
    expect(await store.getState().edit('ap1', { description: 'Buy oat milk' })).toBe(true);
    expect(store.getState().activity.ap1?.accepted).toBe('edit');
    expect(store.getState().known.ap1?.status).toBe('approved');
  });

  it('answers several look-ups at once with one request, and reads again after a reconnect gap', async () => {
    let lists = 0;
    const fake = fakeClient({
      'approval.list': async () => {
        lists += 1;
        return { approvals: [sampleApproval({ id: 'ap2', status: 'approved' })] };
      },
    });
    const store = createApprovalsStore(fake.client);
    await Promise.all([store.getState().lookUp(), store.getState().lookUp()]);
    expect(lists).toBe(1);
    expect(store.getState().hasLookedUp).toBe(true);

    store.getState().connect();
    fake.emit('approvals.changed', pendingEvent([sampleApproval()]));
    // ap1 vanishes with no event naming it (decided while the socket was down): the store asks again.
    fake.emit('approvals.changed', pendingEvent([]));
    await store.getState().lookUp();
    expect(lists).toBeGreaterThanOrEqual(2);
  });
});
