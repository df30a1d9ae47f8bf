import { summarizeToolCall } from '../../../../shared/tool-summaries';
import { formatValue } from '../../format';
import { useAgentLabel, useIsChildStopped } from '../agents/agent-names';
import { ApprovalSlot, useCallApproval } from '../approvals/ApprovalSlot';
import type { RowProps } from './timeline-entry';
import type { ToolRow } from './timeline-rows';
import { useCardUndo, useChat } from '../../stores';
import {
  cancelledReason,
  isCancelledCall,
  isExpiredCall,
  isUnsureAfterEnding,
  refusedCallLabel,
  UNSURE_AFTER_ENDING,
  toolErrorWords,
  toolStateLabel,
} from './tool-state';
import { ToolCardUndo } from './ToolCardUndo';

/**
 * One card per tool call: what it did in a line of the product's words, where it stands, the approval it
 * waits on (inside the card, not beside it), Undo once it is done, and the raw input and output behind a
 * disclosure.
 */
export function ToolCallCard({
  call,
  row = {},
  stepSays,
}: {
  call: ToolRow;
  row?: RowProps;
  /** What the plan step holding the card says of itself ("Done", "Cancelled"): the card does not say it again. */
  stepSays?: string;
}) {
  const isDone = call.state === 'completed';
  const agentLabel = useAgentLabel();
  const summary = summarizeToolCall(call.tool, call.args, isDone, {
    result: call.result,
    agentLabel,
    names: call.names,
  });
  const hasResult = call.result !== undefined && call.result !== null;
  // The agent it started was stopped (with its parent, or by the person): the call was stopped, it did not fail.
  const isStopped = useIsChildStopped(call.id) && call.state === 'failed';
  // Refused or cut off because its run was ended around it: its words ("Cancelled: you cancelled the plan.", or
  // what a call cut off may still have done) are a quiet note, not an error. A stopped agent's card says less.
  const isCancelled = useChat((state) => isCancelledCall(call, state.conversation.items)) && !isStopped;
  // A rejected call's error is the note Deputy wrote for the model ("…do not retry it"): not for the person.
  const shownError = call.state === 'rejected' || isStopped || isCancelled ? null : toolErrorWords(call);
  // While it waits for the person, the approval card inside says what the call would do and where it stands.
  // Until that approval is found (or when it is gone), the card's own line says which action it is about.
  const approval = useCallApproval(call.approvalItem);
  // Nobody answered in time: the card says so as its approval card does, not "Rejected", and not as a failure.
  const isExpired = !isCancelled && isExpiredCall(call, approval);
  const state = isStopped ? 'stopped' : isCancelled ? 'cancelled' : isExpired ? 'expired' : call.state;
  const isUnsure = isUnsureAfterEnding(call, approval);
  const isAsking = call.state === 'awaiting_confirmation' && Boolean(approval) && !isUnsure;
  // Not done by the person's rules, with nobody asked: the policy's reason, written for the person, says why.
  const isNotDone = call.state === 'rejected' && !call.approvalItem && !isCancelled && !isStopped;
  // Undone from this card a moment ago, before (or without) the conversation hearing it from the host.
  const isUndone = useCardUndo((state) => state.cards[call.id]?.isUndone ?? false) || call.isUndone === true;
  const label = isUndone
    ? 'Undone'
    : isStopped
      ? 'Stopped'
      : isCancelled
        ? 'Cancelled'
        : isExpired
          ? 'Expired'
          : call.state === 'rejected'
            ? refusedCallLabel(call.approvalItem !== undefined, approval)
            : isUnsure
              ? UNSURE_AFTER_ENDING
              : toolStateLabel(call.state, call.ledgerState);
  return (
    <li
      className={`tool-card tool-card--${state}${call.ledgerState === 'unknown' ? ' tool-card--unsure' : ''}`}
      data-testid="tool-call"
      data-tool={call.tool}
      data-state={call.state}
      data-stopped={isStopped ? 'true' : undefined}
      data-ledger-state={call.ledgerState}
      data-undone={isUndone ? 'true' : undefined}
      {...row}
    >
      {!isAsking && (
        <div className="tool-card__line">
          <span className="tool-card__summary" data-testid="tool-call-summary">
            {summary}
          </span>
          {label !== stepSays && (
            <span className="tool-card__state" data-testid="tool-call-state">
              {label}
            </span>
          )}
        </div>
      )}
      {shownError && (
        <p className="tool-card__error" data-testid="tool-call-error">
          {shownError}
        </p>
      )}
      {isCancelled && (
        <p className="tool-card__note" data-testid="tool-call-note">
          {cancelledReason(call.error)}
        </p>
      )}
      {isNotDone && call.error && (
        <p className="tool-card__note" data-testid="tool-call-note">
          {call.error}
        </p>
      )}
      {call.approvalItem && (
        <div className="tool-card__approval">
          <ApprovalSlot
            actionId={call.approvalItem.actionId}
            snapshot={call.approvalItem.approval}
            isCancelled={isCancelled}
            holderSays={label}
          />
        </div>
      )}
      <ToolCardUndo call={call} isUndone={isUndone} />
      <details className="tool-card__details">
        <summary>Details</summary>
        <div className="tool-card__body">
          <h3>Input</h3>
          <pre data-testid="tool-call-input">{formatValue(call.args)}</pre>
          {hasResult && (
            <>
              <h3>Output</h3>
              <pre data-testid="tool-call-output">{formatValue(call.result)}</pre>
            </>
          )}
          {call.undoNote && !isUndone && (
            <p className="tool-card__note" data-testid="tool-call-undo-note">
              No undo: {call.undoNote}
            </p>
          )}
          <a
            className="tool-card__audit"
            href={`#/audit/${encodeURIComponent(call.id)}`}
            data-testid="tool-call-audit"
          >
            See it in the audit trail
          </a>
        </div>
      </details>
    </li>
  );
}
