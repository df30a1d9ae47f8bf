import { afterEach, beforeEach, describe, expect, it, vi, type Mock } from 'vitest';
import {
  DeputyError,
  type Approval,
  type CommandName,
  type CommandOutput,
  type CommandParsedInput,
  type ContractHost,
  type StreamEvent,
  type StreamName,
  type StreamParsedInput,
} from '../../../shared/contract';
import { FakeNotification } from './fake-electron';

vi.mock('electron', async () => ({
  app: { isPackaged: false, getAppPath: () => '/opt/deputy', setBadgeCount: () => true },
  BrowserWindow: (await import('./fake-electron')).FakeBrowserWindow,
  Notification: (await import('./fake-electron')).FakeNotification,
}));

const { APPROVAL_NOTIFICATION_TITLE, setupApprovalNotifications } =
  await import('../../../electron/shell/approval-notifications');

type ApprovalsListener = (event: StreamEvent<'approvals.changed'>) => void;

/** The Host as the shell sees it: tests push `approvals.changed` events and script `approval.decide`. */
class FakeHost implements ContractHost {
  readonly calls: { channel: CommandName; input: unknown }[] = [];
  readonly listeners = new Set<ApprovalsListener>();
  decide: () => Promise<unknown> = async () => ({ ok: true });

  async invoke<C extends CommandName>(channel: C, input: CommandParsedInput<C>): Promise<CommandOutput<C>> {
    this.calls.push({ channel, input });
    return (await this.decide()) as CommandOutput<C>;
  }

  subscribe<S extends StreamName>(
    channel: S,
    _input: StreamParsedInput<S>,
    listener: (event: StreamEvent<S>) => void,
  ): () => void {
    if (channel !== 'approvals.changed') throw new Error(`unexpected stream ${channel}`);
    const approvalsListener = listener as ApprovalsListener;
    this.listeners.add(approvalsListener);
    return () => this.listeners.delete(approvalsListener);
  }

  pushPending(pending: Approval[], changed: Approval | null = null): void {
    for (const listener of this.listeners) listener({ type: 'approvals.changed', pending, changed });
  }
}

function approval(id: string, overrides: Partial<Approval> = {}): Approval {
  return {
    id,
    runId: 'run-1',
    threadId: 'thread-1',
    actionId: `action-${id}`,
    tool: 'gmail_send',
    args: { to: 'ana@example.com', subject: 'Lunch', body: 'secret body text' },
    fingerprint: 'fp',
    status: 'pending',
    level: 'confirm',
    reason: 'Supervised: every action waits for your approval.',
    rule: 'trust:supervised',
    risk: 'high',
    preview: {
      title: 'Send an email to ana@example.com',
      fields: [{ label: 'Subject', value: 'Lunch' }],
      body: 'secret body text',
    },
    previewText: 'Send an email to ana@example.com\nSubject: Lunch\n\nsecret body text',
    intent: null,
    reasoning: 'The model thinks so.',
    confidence: 0.9,
    assumptions: [],
    alwaysAllowScopes: [],
    argsSchema: {},
    createdAt: '2025-01-01T10:00:00.000Z',
    expiresAt: '2025-01-01T11:00:00.000Z',
    decidedAt: null,
    decisionNote: null,
    ...overrides,
  };
}

let host: FakeHost;
function fakeApprovalWindows() {
  return {
    open: vi.fn<(approvalId: string) => void>(),
    closeAllBut: vi.fn<(pendingIds: ReadonlySet<string>) => void>(),
    closeAll: vi.fn<() => void>(),
  };
}

let approvalWindows: ReturnType<typeof fakeApprovalWindows>;
let showMainWindow: Mock<() => void>;
let setBadgeCount: Mock<(count: number) => void>;
let stop: (() => void) | undefined;

function setup(platform: NodeJS.Platform = 'darwin'): void {
  stop = setupApprovalNotifications(host, {
    approvalWindows,
    Notification: FakeNotification,
    platform,
    setBadgeCount,
    showMainWindow,
  });
}

function onlyNotification(): FakeNotification {
  const [notification, ...others] = FakeNotification.created;
  if (!notification || others.length > 0) {
    throw new Error(`expected one notification, got ${FakeNotification.created.length}`);
  }
  return notification;
}

const decideCalls = () => host.calls.filter((call) => call.channel === 'approval.decide');

beforeEach(() => {
  FakeNotification.reset();
  host = new FakeHost();
  approvalWindows = fakeApprovalWindows();
  showMainWindow = vi.fn<() => void>();
  setBadgeCount = vi.fn<(count: number) => void>();
});

afterEach(() => {
  stop?.();
  stop = undefined;
  vi.restoreAllMocks();
});

describe('a new pending approval', () => {
  it('shows exactly one notification: the fixed title, the preview title and the reason', () => {
    setup();
    host.pushPending([approval('appr-1')]);
    const notification = onlyNotification();
    expect(notification.options.title).toBe(APPROVAL_NOTIFICATION_TITLE);
    expect(notification.options.title).toBe('Deputy needs your approval');
    expect(notification.options.body).toBe(
      'Send an email to ana@example.com\nSupervised: every action waits for your approval.',
    );
    expect(notification.shows).toBe(1);
  });

  it('is announced once, however many events list it', () => {
    setup();
    host.pushPending([approval('appr-1')]);
    host.pushPending([approval('appr-1')]);
    host.pushPending([approval('appr-2'), approval('appr-1')]);
    expect(FakeNotification.created.map((notification) => notification.options.id)).toEqual([
      'deputy-approval-appr-1',
      'deputy-approval-appr-2',
    ]);
  });

  it('announces the approvals already pending when it starts', () => {
    setup();
    host.pushPending([approval('appr-1'), approval('appr-2')]);
    expect(FakeNotification.created).toHaveLength(2);
  });

  it('shows no arguments, body or reasoning, and keeps a long title short', () => {
    setup();
    host.pushPending([
      approval('appr-1', { preview: { title: `Send ${'x'.repeat(500)}\n\nnow`, fields: [] } }),
    ]);
    const { body = '' } = onlyNotification().options;
    expect(body).not.toContain('secret');
    expect(body).not.toContain('The model thinks so');
    const [title = ''] = body.split('\n');
    expect(title.length).toBeLessThanOrEqual(120);
    expect(title.endsWith('…')).toBe(true);
  });

  it('shows nothing where notifications are not supported, but still keeps windows and badge in step', () => {
    FakeNotification.supported = false;
    setup();
    host.pushPending([approval('appr-1')]);
    expect(FakeNotification.created).toEqual([]);
    expect(setBadgeCount).toHaveBeenLastCalledWith(1);
    host.pushPending([]);
    expect(approvalWindows.closeAllBut).toHaveBeenLastCalledWith(new Set());
  });
});

describe('clicking the notification', () => {
  it('opens the approval window for that id', () => {
    setup('linux');
    host.pushPending([approval('appr-1'), approval('appr-2')]);
    FakeNotification.created[1]?.click();
    expect(approvalWindows.open.mock.calls).toEqual([['appr-2']]);
  });

  it('shows the main window instead once the approval is no longer pending', () => {
    setup();
    host.pushPending([approval('appr-1')]);
    const notification = onlyNotification();
    host.pushPending([]);
    notification.click();
    expect(approvalWindows.open).not.toHaveBeenCalled();
    expect(showMainWindow).toHaveBeenCalledTimes(1);
  });
});

describe('Approve and Reject on the notification (macOS)', () => {
  it('offers the two buttons, Approve first', () => {
    setup('darwin');
    host.pushPending([approval('appr-1')]);
    expect(onlyNotification().options.actions).toEqual([
      { type: 'button', text: 'Approve' },
      { type: 'button', text: 'Reject' },
    ]);
  });

  it('action 0 approves, once', async () => {
    setup('darwin');
    host.pushPending([approval('appr-1')]);
    const notification = onlyNotification();
    notification.pressAction(0);
    notification.pressAction(0);
    await vi.waitFor(() => expect(decideCalls()).toHaveLength(1));
    await new Promise((resolve) => setImmediate(resolve));
    expect(decideCalls()).toEqual([
      { channel: 'approval.decide', input: { approvalId: 'appr-1', decision: 'approve' } },
    ]);
    expect(FakeNotification.created).toHaveLength(1);
  });

  it('action 1 rejects', async () => {
    setup('darwin');
    host.pushPending([approval('appr-1')]);
    onlyNotification().pressAction(1);
    await vi.waitFor(() =>
      expect(decideCalls()).toEqual([
        { channel: 'approval.decide', input: { approvalId: 'appr-1', decision: 'reject' } },
      ]),
    );
  });

  it('reads the index from the second argument when the details do not carry it (Electron before 45)', async () => {
    setup('darwin');
    host.pushPending([approval('appr-1')]);
    onlyNotification().emit('action', {}, 1);
    await vi.waitFor(() => expect(decideCalls()).toMatchObject([{ input: { decision: 'reject' } }]));
  });

  it('ignores an action it did not offer', async () => {
    setup('darwin');
    host.pushPending([approval('appr-1')]);
    onlyNotification().pressAction(2);
    await new Promise((resolve) => setImmediate(resolve));
    expect(decideCalls()).toEqual([]);
  });

  it('follows a failed decision up with a notification carrying its message', async () => {
    host.decide = async () => {
      throw new DeputyError('approval_decided', 'This approval was already decided.');
    };
    setup('darwin');
    host.pushPending([approval('appr-1')]);
    onlyNotification().pressAction(0);
    await vi.waitFor(() => expect(FakeNotification.created).toHaveLength(2));
    const followUp = FakeNotification.created[1];
    expect(followUp?.options).toEqual({
      title: 'Deputy: Send an email to ana@example.com',
      body: 'This approval was already decided.',
    });
    expect(followUp?.shows).toBe(1);
    // Clicking it opens the card while the approval is still pending.
    followUp?.click();
    expect(approvalWindows.open.mock.calls).toEqual([['appr-1']]);
  });

  it('keeps an unexpected failure’s details in the log, not on screen', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    host.decide = async () => {
      throw new Error('SQLITE_BUSY at /home/ana/.config/Deputy/deputy.db');
    };
    setup('darwin');
    host.pushPending([approval('appr-1')]);
    onlyNotification().pressAction(1);
    await vi.waitFor(() => expect(FakeNotification.created).toHaveLength(2));
    expect(FakeNotification.created[1]?.options.body).not.toContain('SQLITE');
    expect(log).toHaveBeenCalled();
  });

  it.each([
    ['a review-level approval', { level: 'review' as const }],
    ['a critical-risk call', { risk: 'critical' as const }],
  ])('offers no buttons for %s: it must be read in full', (_name, overrides) => {
    setup('darwin');
    host.pushPending([approval('appr-1', overrides)]);
    const notification = onlyNotification();
    expect(notification.options.actions).toBeUndefined();
    notification.pressAction(0);
    expect(decideCalls()).toEqual([]);
    notification.click();
    expect(approvalWindows.open.mock.calls).toEqual([['appr-1']]);
  });
});

describe('on Windows', () => {
  it('offers toast buttons, which decide, and a click on the toast opens the approval', async () => {
    setup('win32');
    host.pushPending([approval('appr-1')]);
    const notification = onlyNotification();
    expect(notification.options.actions).toEqual([
      { type: 'button', text: 'Approve' },
      { type: 'button', text: 'Reject' },
    ]);
    notification.pressAction(1);
    await vi.waitFor(() => expect(decideCalls()).toHaveLength(1));
    expect(decideCalls()[0]?.input).toEqual({ approvalId: 'appr-1', decision: 'reject' });
    notification.click();
    expect(approvalWindows.open.mock.calls).toEqual([['appr-1']]);
  });
});

describe('on Linux', () => {
  it('offers no buttons, and a click opens the approval window', () => {
    const platform = 'linux';
    setup(platform);
    host.pushPending([approval('appr-1')]);
    const notification = onlyNotification();
    expect(notification.options.actions).toBeUndefined();
    notification.pressAction(0);
    expect(decideCalls()).toEqual([]);
    notification.click();
    expect(approvalWindows.open.mock.calls).toEqual([['appr-1']]);
  });
});

describe('an approval that is no longer pending', () => {
  it('has its notification closed and its window closed', () => {
    setup();
    host.pushPending([approval('appr-1'), approval('appr-2')]);
    const [first, second] = FakeNotification.created;
    host.pushPending([approval('appr-2')], approval('appr-1', { status: 'approved' }));
    expect(first?.isClosed).toBe(true);
    expect(second?.isClosed).toBe(false);
    expect(approvalWindows.closeAllBut).toHaveBeenLastCalledWith(new Set(['appr-2']));
  });

  it('is announced again if it ever comes back', () => {
    setup();
    host.pushPending([approval('appr-1')]);
    host.pushPending([]);
    host.pushPending([approval('appr-1')]);
    expect(FakeNotification.created).toHaveLength(2);
  });
});

describe('the badge', () => {
  it('shows the pending count, set only when it changes', () => {
    setup();
    host.pushPending([approval('appr-1')]);
    host.pushPending([approval('appr-1')]);
    host.pushPending([approval('appr-1'), approval('appr-2')]);
    host.pushPending([]);
    expect(setBadgeCount.mock.calls).toEqual([[1], [2], [0]]);
  });
});

describe('stopping', () => {
  it('unsubscribes, closes every notification and window, and clears the badge', async () => {
    host.decide = async () => {
      throw new DeputyError('approval_expired', 'This approval has expired.');
    };
    setup();
    host.pushPending([approval('appr-1')]);
    onlyNotification().pressAction(0);
    await vi.waitFor(() => expect(FakeNotification.created).toHaveLength(2));
    stop?.();
    expect(host.listeners.size).toBe(0);
    expect(FakeNotification.created.map((notification) => notification.isClosed)).toEqual([true, true]);
    expect(approvalWindows.closeAll).toHaveBeenCalledTimes(1);
    expect(setBadgeCount).toHaveBeenLastCalledWith(0);
    stop?.();
    expect(approvalWindows.closeAll).toHaveBeenCalledTimes(1);
  });

  it('leaves the app running when the Host cannot stream approvals', () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    host.subscribe = () => {
      throw new Error('approvals.changed is not wired');
    };
    expect(() => setup()).not.toThrow();
    expect(log).toHaveBeenCalled();
  });
});
