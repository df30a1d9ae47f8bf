import { Notification, type NotificationConstructorOptions } from 'electron';
import { pendingCountBadge } from './badge';
import { toErrorBody, type Approval, type ContractHost } from '../../shared/contract';
import { redactError } from '../vault/redactor';
import type { ApprovalWindows } from './approval-window';
import { oneLine } from './one-line';
import { showMainWindow } from './windows';

/** The parts of Electron's `Notification` used here, so tests can drive a stand-in. */
export interface ApprovalNotification {
  on(event: 'click', listener: () => void): unknown;
  // Electron 45 passes `{ actionIndex }` first; older versions passed the index as the second argument.
  on(event: 'action', listener: (details: { actionIndex?: number }, actionIndex?: number) => void): unknown;
  on(event: 'failed', listener: (event: unknown, error: string) => void): unknown;
  show(): void;
  close(): void;
}

export interface NotificationConstructor {
  new (options: NotificationConstructorOptions): ApprovalNotification;
  isSupported(): boolean;
}

export interface ApprovalNotificationDeps {
  approvalWindows: ApprovalWindows;
  Notification?: NotificationConstructor;
  platform?: NodeJS.Platform;
  /** The dock / launcher badge, or the taskbar overlay on Windows (badge.ts). */
  setBadgeCount?: (count: number) => void;
  showMainWindow?: () => void;
  /** The person's setting for approval notifications; the badge and the cards follow approvals either way. */
  isEnabled?: () => boolean;
}

export const APPROVAL_NOTIFICATION_TITLE = 'Deputy needs your approval';
const APPROVE = 0;
const REJECT = 1;
const TITLE_MAX_CHARS = 120;
const REASON_MAX_CHARS = 160;
/** Follow-ups are kept only so they are not garbage-collected while on screen; a few recent ones suffice. */
const FOLLOW_UPS_KEPT = 5;

/**
 * Where a notification from this app carries buttons. macOS: with the alert style of a signed app. Windows:
 * Electron 45 turns `actions` into toast buttons and reports a press as `action` to the running app (the
 * toast needs the AppUserModelID the installer's shortcut carries; main.ts sets it). Linux notification
 * servers differ too much: there a click opens the approval card.
 */
export function hasNotificationActions(platform: NodeJS.Platform): boolean {
  return platform === 'darwin' || platform === 'win32';
}

/**
 * One-tap buttons only where the user did not ask to read first: a `review` approval (the user's own
 * setting) or a critical-risk call must be decided with the whole preview in front of them.
 */
export function canDecideFromNotification(approval: Approval): boolean {
  return approval.level === 'confirm' && approval.risk !== 'critical';
}

/**
 * What the call would do and why it waits, from the preview the tool built for the user. Never the
 * arguments, the body or the model's reasoning: a notification can show on a locked screen.
 */
export function approvalNotificationBody(approval: Approval): string {
  return `${oneLine(approval.preview.title, TITLE_MAX_CHARS)}\n${oneLine(approval.reason, REASON_MAX_CHARS)}`;
}

/**
 * Tells the user about each new pending approval with a native notification, keeps the approval cards
 * in step with what is still pending, and shows the pending count on the badge. Returns the cleanup.
 */
export function setupApprovalNotifications(host: ContractHost, deps: ApprovalNotificationDeps): () => void {
  const {
    approvalWindows,
    Notification: NotificationClass = Notification,
    platform = process.platform,
    setBadgeCount = pendingCountBadge(platform),
    showMainWindow: showMain = showMainWindow,
    isEnabled = () => true,
  } = deps;
  const isSupported = NotificationClass.isSupported();
  const hasActions = hasNotificationActions(platform);

  /** Approval id → its notification, held until the approval leaves `pending` (Electron drops GC'd ones). */
  const shown = new Map<string, ApprovalNotification>();
  const followUps: ApprovalNotification[] = [];
  let pendingIds: ReadonlySet<string> = new Set();
  const deciding = new Set<string>();
  let badgeCount = 0;
  let isStopped = false;

  function openApproval(approvalId: string): void {
    // A notification can outlive its approval (Notification Center keeps it); then the chat is the place to look.
    if (pendingIds.has(approvalId)) approvalWindows.open(approvalId);
    else showMain();
  }

  function notify(options: NotificationConstructorOptions): ApprovalNotification {
    const notification = new NotificationClass(options);
    notification.on('failed', (_event, error) =>
      console.error('[approval-notifications] not shown:', redactError(error)),
    );
    notification.show();
    return notification;
  }

  function showFollowUp(approval: Approval, message: string): void {
    if (isStopped) return;
    const followUp = notify({
      title: `Deputy: ${oneLine(approval.preview.title, TITLE_MAX_CHARS)}`,
      body: message,
    });
    followUp.on('click', () => openApproval(approval.id));
    followUps.push(followUp);
    if (followUps.length > FOLLOW_UPS_KEPT) followUps.shift()?.close();
  }

  async function decide(approval: Approval, decision: 'approve' | 'reject'): Promise<void> {
    // macOS hides the buttons after one press, but a second press must never send a second decision.
    if (deciding.has(approval.id)) return;
    deciding.add(approval.id);
    try {
      await host.invoke('approval.decide', { approvalId: approval.id, decision });
    } catch (error) {
      // Expected failures (already decided, expired) carry words for the user; anything else stays in the log.
      const body = toErrorBody(error);
      if (body.code === 'internal')
        console.error('[approval-notifications] approval.decide failed', redactError(error));
      showFollowUp(approval, body.message);
    } finally {
      deciding.delete(approval.id);
    }
  }

  function show(approval: Approval): void {
    const hasButtons = hasActions && canDecideFromNotification(approval);
    const notification = notify({
      title: APPROVAL_NOTIFICATION_TITLE,
      body: approvalNotificationBody(approval),
      // The same id after a restart replaces the old entry in Notification Center instead of adding one.
      id: `deputy-approval-${approval.id}`,
      ...(hasButtons && {
        actions: [
          { type: 'button', text: 'Approve' },
          { type: 'button', text: 'Reject' },
        ],
      }),
    });
    notification.on('click', () => openApproval(approval.id));
    if (hasButtons) {
      notification.on('action', (details, legacyIndex) => {
        const index = details.actionIndex ?? legacyIndex;
        if (index === APPROVE) void decide(approval, 'approve');
        else if (index === REJECT) void decide(approval, 'reject');
      });
    }
    shown.set(approval.id, notification);
  }

  function onChange(nextPending: readonly Approval[]): void {
    if (isStopped) return;
    pendingIds = new Set(nextPending.map((approval) => approval.id));

    for (const [approvalId, notification] of shown) {
      if (pendingIds.has(approvalId)) continue;
      notification.close();
      shown.delete(approvalId);
    }
    approvalWindows.closeAllBut(pendingIds);
    // `shown` doubles as the set of ids already notified: an approval is announced once while it is pending.
    if (isSupported && isEnabled())
      for (const approval of nextPending) if (!shown.has(approval.id)) show(approval);
    updateBadge(nextPending.length);
  }

  function updateBadge(count: number): void {
    if (count === badgeCount) return;
    badgeCount = count;
    setBadgeCount(count);
  }

  const unsubscribe = subscribeToApprovals(host, onChange);

  return () => {
    if (isStopped) return;
    isStopped = true;
    unsubscribe();
    // Closed so Notification Center does not keep buttons for approvals this process can no longer decide.
    for (const notification of [...shown.values(), ...followUps]) notification.close();
    shown.clear();
    followUps.length = 0;
    approvalWindows.closeAll();
    updateBadge(0);
  };
}

/** A Host that cannot stream approvals must not stop the app from starting: the chat still shows them. */
export function subscribeToApprovals(
  host: ContractHost,
  onChange: (pending: readonly Approval[]) => void,
): () => void {
  try {
    return host.subscribe('approvals.changed', {}, (event) => onChange(event.pending));
  } catch (error) {
    console.error('[approval-notifications] could not subscribe to approvals.changed', redactError(error));
    return () => undefined;
  }
}
