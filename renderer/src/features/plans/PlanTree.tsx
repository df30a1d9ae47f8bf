import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { Plan, PlanStep } from '../../../../shared/contract';
import type { TimelineItem } from '../chat/timeline';
import { timelineRows } from '../chat/timeline-rows';
import { useFocusAfterSave } from '../settings/use-focus-after-save';
import { useChat, usePlans } from '../../stores';
import { ToolCallCard } from '../chat/ToolCallCard';
import { isCancelledCall, isExpiredCall, refusedCallLabel } from '../chat/tool-state';
import { useCallApproval } from '../approvals/ApprovalSlot';
import {
  APPROVE_STEP,
  approveStepLabel,
  canApprovePlan,
  EXPIRED_STEP,
  isPlanOpen,
  PLAN_STATE,
  REFUSED_STEP_ICON,
  skipReason,
  STEP_STATE,
  stepState,
} from './plans-model';
import './plans.css';

function StepAnswer({ plan, step }: { plan: Plan; step: PlanStep }) {
  const answer = usePlans((state) => state.answer);
  const [text, setText] = useState('');
  const inputId = `plan-answer-${plan.id}-${step.id}`;
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (text.trim()) void answer(plan.id, text.trim());
  };
  return (
    <form className="plan-step__answer" onSubmit={onSubmit} data-testid="plan-answer">
      <label htmlFor={inputId}>Your answer</label>
      <input id={inputId} value={text} onChange={(event) => setText(event.target.value)} />
      <button type="submit" className="button button--primary" disabled={!text.trim()}>
        Answer
      </button>
    </form>
  );
}

function StepRow({
  plan,
  step,
  isFound,
  shownApprovalFor,
}: {
  plan: Plan;
  step: PlanStep;
  isFound: boolean;
  shownApprovalFor?: string;
}) {
  // Opened from a search hit on its question or answer: marked, and focused so the keyboard goes on from here.
  const ref = useRef<HTMLLIElement>(null);
  useEffect(() => {
    if (isFound) ref.current?.focus({ preventScroll: true });
  }, [isFound]);
  const approveStep = usePlans((state) => state.approveStep);
  // The step's calls, each as one card holding the approval it waits on (as everywhere in the chat).
  const items = useChat((state) => state.conversation.items).filter(
    (item) =>
      (item.kind === 'tool' && step.actionIds.includes(item.id)) ||
      (item.kind === 'approval' && step.actionIds.includes(item.actionId)),
  );
  const tools = timelineRows(items);
  // "Approve this step" approves the step's waiting call. Once a tool card below shows that call's own
  // approval, the card's Approve is the one button for it: a second one here would do the same thing.
  // So too where the window shows that call's approval card above the tree (the approval window).
  const isStepApprovalUseful =
    !tools.some((row) => row.kind === 'tool' && row.approvalItem !== undefined) &&
    (shownApprovalFor === undefined || !step.actionIds.includes(shownApprovalFor));
  // Its last call was rejected: the step's result is then the note Deputy wrote for the model ("…do not retry
  // it"), not words for the person; the call's card shows the rejection and its reason.
  const lastCall = items.findLast((item) => item.kind === 'tool');
  const isRejected = step.status === 'failed' && lastCall?.kind === 'tool' && lastCall.state === 'rejected';
  // Unless Deputy turned it down, or cut it off while it ran, as the plan was cancelled (or its run stopped):
  // then the step was cancelled, and the card says why in the person's words ("Cancelled: you cancelled the plan.").
  const isCancelled = useChat(
    (state) =>
      step.status === 'failed' &&
      lastCall?.kind === 'tool' &&
      isCancelledCall(lastCall, state.conversation.items),
  );
  // Or its approval expired with nobody answering: said as its card says it.
  const lastApprovalItem = items.findLast(
    (item): item is Extract<TimelineItem, { kind: 'approval' }> =>
      item.kind === 'approval' && item.actionId === lastCall?.id,
  );
  const lastApproval = useCallApproval(lastApprovalItem);
  const isExpired =
    isRejected && !isCancelled && lastCall !== undefined && isExpiredCall(lastCall, lastApproval);
  const skipped = skipReason(plan, step);
  const state = isCancelled
    ? STEP_STATE.cancelled
    : isExpired
      ? EXPIRED_STEP
      : isRejected
        ? { icon: REFUSED_STEP_ICON, words: refusedCallLabel(lastApprovalItem !== undefined, lastApproval) }
        : stepState(step);
  return (
    <li
      ref={ref}
      className={`plan-step plan-step--${isCancelled ? 'cancelled' : isExpired ? 'expired' : isRejected ? 'refused' : step.status}${isFound ? ' plan-step--found' : ''}`}
      data-testid="plan-step"
      data-step-id={step.id}
      data-status={step.status}
      data-found={isFound ? 'true' : undefined}
      tabIndex={isFound ? -1 : undefined}
    >
      <div className="plan-step__line">
        <span className="plan-step__icon" aria-hidden="true">
          {state.icon}
        </span>
        <span className="plan-step__words">
          {/* In the plan's words, without the tool's name: once it runs, its card says in words what it did. */}
          <span className="plan-step__title">{step.title}</span>
          <span className="plan-step__state">{state.words}</span>
          {step.needsApproval &&
            !step.isApproved &&
            isPlanOpen(plan) &&
            (step.status === 'pending' || step.status === 'ready') && (
              <span className="plan-step__badge">Asks first</span>
            )}
        </span>
      </div>
      {/* Asked here, and here only (see withoutPlanDialogue); kept above the answer once answered. */}
      {step.question && <p className="plan-step__question">{step.question}</p>}
      {step.answer && <p className="plan-step__result">You answered: {step.answer}</p>}
      {/* Why it failed, where no card below says it (a card's error, rejection or cancellation is the result). */}
      {step.status === 'failed' && step.result && tools.length === 0 && (
        <p className="plan-step__result">{step.result}</p>
      )}
      {skipped && (
        <p className="plan-step__result" data-testid="plan-step-why">
          {skipped}
        </p>
      )}
      {step.status === 'awaiting_user' && <StepAnswer plan={plan} step={step} />}
      {step.status === 'awaiting_approval' && isStepApprovalUseful && (
        <button
          type="button"
          className="button"
          data-testid="plan-approve-step"
          aria-label={approveStepLabel(step.title)}
          onClick={() => void approveStep(plan.id, step.actionIds)}
        >
          {APPROVE_STEP}
        </button>
      )}
      {tools.length > 0 && (
        <ol className="timeline plan-step__tools">
          {tools.map(
            (item) =>
              item.kind === 'tool' && <ToolCallCard key={item.id} call={item} stepSays={state.words} />,
          )}
        </ol>
      )}
    </li>
  );
}

/**
 * A plan as a tree under the request: its steps, their state, and what the person can do about it.
 * `foundStepId`: the step a search hit opened the conversation at (its question or answer), shown even if folded.
 * `shownApprovalFor`: the action whose approval card the window shows beside the tree, with its own Approve.
 */
export function PlanTree({
  plan,
  foundStepId,
  shownApprovalFor,
}: {
  plan: Plan;
  foundStepId?: string;
  shownApprovalFor?: string;
}) {
  const [isOpen, setOpen] = useState(true);
  useEffect(() => {
    if (foundStepId) setOpen(true);
  }, [foundStepId]);
  const busy = usePlans((state) => state.busy[plan.id] ?? null);
  const error = usePlans((state) => state.errors[plan.id] ?? null);
  const { approve, resume, cancel } = usePlans((state) => state);
  const titleId = `plan-title-${plan.id}`;
  const stepsId = `plan-steps-${plan.id}`;
  const canContinue =
    plan.status === 'paused' &&
    plan.approvedAt !== null &&
    plan.steps.some((s) => s.status === 'awaiting_approval');
  const done = plan.steps.filter((step) => step.status === 'done').length;
  // Approve plan, Continue and Cancel plan go away with what they do: the keyboard moves to the plan's own
  // heading rather than falling to the page.
  const area = useRef<HTMLElement>(null);
  const focusAfter = useFocusAfterSave(area, plan);
  const act = (action: (planId: string) => Promise<unknown>) => () => {
    focusAfter('.plan__toggle');
    void action(plan.id);
  };
  return (
    <section
      ref={area}
      className="plan"
      aria-labelledby={titleId}
      data-testid="plan-tree"
      data-plan-id={plan.id}
      data-status={plan.status}
    >
      <h3 id={titleId} className="plan__title">
        <button
          type="button"
          className="plan__toggle"
          aria-expanded={isOpen}
          aria-controls={stepsId}
          onClick={() => setOpen(!isOpen)}
        >
          <span aria-hidden="true">{isOpen ? '▾' : '▸'}</span> Plan: {plan.goal}
        </button>
      </h3>
      <p className="plan__summary" data-testid="plan-status">
        {PLAN_STATE[plan.status]} · {done} of {plan.steps.length} steps done
        {plan.approvedAt && ' · you approved this plan'}
      </p>
      {isOpen && (
        <ol id={stepsId} className="plan__steps">
          {plan.steps.map((step) => (
            <StepRow
              key={step.id}
              plan={plan}
              step={step}
              isFound={step.id === foundStepId}
              shownApprovalFor={shownApprovalFor}
            />
          ))}
        </ol>
      )}
      {isPlanOpen(plan) && (
        <div className="plan__actions">
          {canApprovePlan(plan) && (
            <button
              type="button"
              className="button button--primary"
              data-testid="plan-approve"
              disabled={busy !== null}
              onClick={act(approve)}
            >
              Approve the whole plan
            </button>
          )}
          {canContinue && (
            <button
              type="button"
              className="button"
              data-testid="plan-continue"
              disabled={busy !== null}
              onClick={act(resume)}
            >
              Continue
            </button>
          )}
          <button
            type="button"
            className="button"
            data-testid="plan-cancel"
            disabled={busy !== null}
            onClick={act(cancel)}
          >
            Cancel plan
          </button>
          {busy && <span role="status">{busy}</span>}
        </div>
      )}
      {error && (
        <p className="run-error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}

/** The plans a run made, where the run's request sits in the conversation. */
export function PlanSlot({ runId }: { runId: string | null }) {
  const plans = usePlans((state) => state.plans);
  const anchors = usePlans((state) => state.anchors);
  if (!runId) return null;
  const mine = Object.values(plans).filter((plan) => (anchors[plan.id] ?? plan.runId) === runId);
  return (
    <>
      {mine.map((plan) => (
        <li key={plan.id} className="timeline__plan">
          <PlanTree plan={plan} />
        </li>
      ))}
    </>
  );
}
