import type { Approval, ApprovalStatus, ApprovalsChangedEvent } from '../../../../shared/contract';
import { TASKS_THREAD_ID } from '../../../../shared/tasks-thread';

/**
 * The preview's fields its title does not already say. A title names the action's object at its end ("Add a
 * task: Buy milk", "Send an email to sam@example.com"): a field holding just that is not said twice.
 */
export function fieldsBeyondTitle(preview: Approval['preview']): Approval['preview']['fields'] {
  const title = preview.title.trim();
  return preview.fields.filter((field) => {
    const value = field.value.trim();
    return value === '' || !(title.endsWith(`: ${value}`) || title.endsWith(` to ${value}`));
  });
}

/** What the window knows about approvals: the host's pending list and every approval it has seen, by id. */
export interface ApprovalsSnapshot {
  pending: Approval[];
  known: Record<string, Approval>;
}

export const emptySnapshot = (): ApprovalsSnapshot => ({ pending: [], known: {} });

/**
 * An approval only ever leaves `pending`: a late copy that still says pending (an event sent before the
 * decision, a list fetched before it) must not undo a decision this window already saw.
 */
export function mergeApproval(previous: Approval | undefined, next: Approval): Approval {
  if (previous && previous.status !== 'pending' && next.status === 'pending') return previous;
  return next;
}

export function rememberApprovals(snapshot: ApprovalsSnapshot, approvals: Approval[]): ApprovalsSnapshot {
  if (approvals.length === 0) return snapshot;
  const known = { ...snapshot.known };
  for (const approval of approvals) known[approval.id] = mergeApproval(known[approval.id], approval);
  return { pending: snapshot.pending.filter((item) => known[item.id]?.status === 'pending'), known };
}

/** Folds one `approvals.changed` event: the host's pending list replaces ours, minus what we know is decided. */
export function applyApprovalsChanged(
  snapshot: ApprovalsSnapshot,
  event: ApprovalsChangedEvent,
): ApprovalsSnapshot {
  const seen = rememberApprovals(snapshot, [...event.pending, ...(event.changed ? [event.changed] : [])]);
  return {
    known: seen.known,
    pending: event.pending
      .map((approval) => seen.known[approval.id] ?? approval)
      .filter((approval) => approval.status === 'pending'),
  };
}

/**
 * Approvals this window holds as pending that the host no longer lists, with no event saying why
 * (decided while the socket was down): their state has to be fetched again.
 */
export function staleApprovalIds(snapshot: ApprovalsSnapshot, event: ApprovalsChangedEvent): string[] {
  const listed = new Set(event.pending.map((approval) => approval.id));
  return Object.values(snapshot.known)
    .filter(
      (approval) =>
        approval.status === 'pending' && !listed.has(approval.id) && approval.id !== event.changed?.id,
    )
    .map((approval) => approval.id);
}

export function findByAction(known: Record<string, Approval>, actionId: string): Approval | undefined {
  let found: Approval | undefined;
  for (const approval of Object.values(known)) {
    if (approval.actionId !== actionId) continue;
    // An edited call may be asked about again; the newest approval for the action is the one to show.
    if (!found || approval.createdAt > found.createdAt) found = approval;
  }
  return found;
}

/** The status to show: a pending approval whose time is up is expired even before the host says so. */
export function shownStatus(approval: Approval, now: number): ApprovalStatus {
  if (approval.status !== 'pending') return approval.status;
  const expiresAt = Date.parse(approval.expiresAt);
  return !Number.isNaN(expiresAt) && expiresAt <= now ? 'expired' : 'pending';
}

/** Two units at most, the smaller left out when it is zero: "1 h", "1 h 5 min", "2 days 3 h". */
const inWords = (big: number, bigUnit: string, small: number, smallUnit: string): string =>
  small === 0 ? `${big} ${bigUnit}` : `${big} ${bigUnit} ${small} ${smallUnit}`;

/**
 * The time an approval has left, in words that cannot be read as a time of day, alike on its card, in the
 * Approvals panel and in the quick prompt: seconds only under a minute ("Expires in 45 s"), then whole minutes
 * ("Expires in 4 min", "Expires in 1 h 5 min", "Expires in 2 days 3 h"). Rounded up, so it never says less time
 * is left than there is.
 */
/** The risk badge's words, in sentence case as the card's other words are: "Low risk", "Critical risk". */
export function riskWords(risk: Approval['risk']): string {
  return `${risk.charAt(0).toUpperCase()}${risk.slice(1)} risk`;
}

export function describeExpiry(expiresAt: string, now: number): string {
  const at = Date.parse(expiresAt);
  if (Number.isNaN(at)) return '';
  const left = at - now;
  if (left <= 0) return 'Expired';
  const seconds = Math.ceil(left / 1000);
  if (seconds < 60) return `Expires in ${seconds} s`;
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 60) return `Expires in ${minutes} min`;
  if (minutes < 24 * 60) return `Expires in ${inWords(Math.floor(minutes / 60), 'h', minutes % 60, 'min')}`;
  const hours = Math.ceil(minutes / 60);
  const days = Math.floor(hours / 24);
  return `Expires in ${inWords(days, days === 1 ? 'day' : 'days', hours % 24, 'h')}`;
}

/** Whether an approval's thread is a conversation the chat can open (the Tasks panel's changes are not). */
export function isConversation(threadId: string): boolean {
  return threadId !== TASKS_THREAD_ID;
}

/**
 * Where an approval was asked for: its conversation's title; an untitled one by its id's tail (the start is the
 * time it began, alike for neighbours); a change made in the Tasks panel, which is no conversation, by the panel.
 */
export function describeWhere(threadId: string, title: string | undefined): string {
  if (!isConversation(threadId)) return 'From the Tasks panel';
  return title || `Conversation …${threadId.slice(-8)}`;
}

/** "just now", "4 min ago", "2 h ago", "3 days ago". */
export function describeAge(createdAt: string, now: number): string {
  const at = Date.parse(createdAt);
  if (Number.isNaN(at)) return '';
  const minutes = Math.floor((now - at) / 60_000);
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  const days = Math.floor(hours / 24);
  return `${days} ${days === 1 ? 'day' : 'days'} ago`;
}

/**
 * The arguments of the same call made quietly, when the tool offers a quiet version (a `notify` argument) and
 * the call would tell someone: "approve without notifying anyone". Null when there is no such way out.
 */
export function quietArgs(approval: Approval): Record<string, unknown> | null {
  const properties = approval.argsSchema.properties;
  const offersQuiet = typeof properties === 'object' && properties !== null && 'notify' in properties;
  const toldAnyone = (approval.preview.reach ?? []).length > 0;
  if (!offersQuiet || !toldAnyone || approval.args.notify === false) return null;
  return { ...approval.args, notify: false };
}

/** Whether the call has arguments to change before it is approved: an action with none (an undo) offers no editor. */
export const hasArgsToEdit = (approval: Approval): boolean =>
  Object.keys(approval.argsSchema.properties ?? {}).length > 0;
