import type { AuditEntry, DeputyClient } from '../../../../shared/contract';
import { toClientError } from '../../api/client-error';

/** What the host answers a second undo of the same action while the first is being made. */
export const UNDO_UNDER_WAY = 'This undo is already under way.';

/** An undo held for the person's yes: not one the rules let run, nor one approved and still running. */
export const isWaitingUndo = (entry: AuditEntry): boolean =>
  entry.kind === 'undo' &&
  entry.status === 'pending' &&
  entry.authority.decision === 'require_approval' &&
  !entry.authority.approvedBy;

/** Whether an undo of `entry` is being made now (approved, or let through by the rules, and not yet done). */
export const isUndoUnderWay = (entry: AuditEntry, related: readonly AuditEntry[]): boolean =>
  related.some(
    (other) =>
      other.kind === 'undo' &&
      other.undo.undoOf === entry.id &&
      other.status === 'pending' &&
      !isWaitingUndo(other),
  );

/** What became of the last thing the person did, said in a status line. */
export interface UndoNotice {
  text: string;
  isError: boolean;
}

/** A question an undo stops at, for the entry (or ledger action) it is about. */
export interface UndoPrompt {
  entryId: string;
  /**
   * `confirm`: the undo reaches outside Deputy (deletes a Slack post…), and the person is asked before it is sent;
   * `changed_since`: the thing changed after the action, and the person may undo anyway (which asks for approval);
   * `approval`: the undo waits for the person's approval (the same approval the list and notifications show).
   */
  kind: 'confirm' | 'changed_since' | 'approval';
  /** What the undo would do, what changed, or why the undo waits. */
  reason: string;
  approvalId: string | null;
}

/** What one request to undo came to. */
export type UndoAnswer =
  | { kind: 'undone'; message: string; original: AuditEntry; undo: AuditEntry | null }
  /** It stops at a question: over a later change, or waiting for approval (`undo`: its entry, when written). */
  | { kind: 'asks'; prompt: UndoPrompt; undo: AuditEntry | null }
  | { kind: 'failed'; message: string };

/**
 * Asks the host to undo `id` (an entry, or the ledger action it describes), as the audit viewer and a chat card
 * both do: the same command, so the same policy and checks. `force` undoes over a later change.
 */
export async function requestUndo(client: DeputyClient, id: string, force = false): Promise<UndoAnswer> {
  try {
    const result = await client.invoke('audit.undo', { id, ...(force && { force }) });
    if (result.status === 'approval_required')
      return {
        kind: 'asks',
        prompt: { entryId: id, kind: 'approval', reason: result.message, approvalId: result.approvalId },
        undo: result.undo,
      };
    return { kind: 'undone', message: result.message, original: result.original, undo: result.undo };
  } catch (error) {
    const failure = toClientError(error);
    if (failure.code === 'changed_since')
      return {
        kind: 'asks',
        prompt: { entryId: id, kind: 'changed_since', reason: failure.message, approvalId: null },
        undo: null,
      };
    return { kind: 'failed', message: failure.message };
  }
}

/** Decides the approval an undo waits for, as the approvals list would; answers what came of it, in words. */
export async function decideUndo(
  client: DeputyClient,
  approvalId: string,
  decision: 'approve' | 'reject',
): Promise<UndoNotice> {
  try {
    const answer = await client.invoke('approval.decide', { approvalId, decision });
    return { text: answer.summary, isError: false };
  } catch (error) {
    return { text: toClientError(error).message, isError: true };
  }
}
