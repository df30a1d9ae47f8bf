import { useCallback, useEffect, useLayoutEffect, useMemo, useRef } from 'react';
import './chat.css';
import { useChat, usePlans, useStores } from '../../stores';
import { useAgentLineage } from '../agents/AgentTimeline';
import { stepSaying, withoutPlanDialogue } from '../plans/plan-dialogue';
import { plannedActionIds } from '../plans/plans-model';
import { ApprovalAnnouncer } from './ApprovalAnnouncer';
import { MessageList, type FoundPlace } from './MessageList';
import { planRowId, type RowExtras } from './nested-rows';
import { RegenerateButton } from './RegenerateButton';
import { RunStatusLine } from './RunStatusLine';
import { toolCardIds } from './timeline-rows';
import { markRepeats } from './turns';
import { RevealContext, revealedScrollTop } from '../../reveal';

export function Conversation() {
  const items = useChat((state) => state.conversation.items);
  const usage = useChat((state) => state.conversation.usage);
  const activeRun = useChat((state) => state.conversation.activeRun);
  const endedRuns = useChat((state) => state.conversation.endedRunIds);
  const startedChildren = useChat((state) => state.conversation.childRunIds);
  const storedLineage = useChat((state) => state.conversation.lineage);
  const isStarting = useChat((state) => state.isStarting);
  const isLoading = useChat((state) => state.isLoadingThread);
  const error = useChat((state) => state.threadError);
  const threadId = useChat((state) => state.conversation.threadId);
  const focusMessageId = useChat((state) => state.focusMessageId);
  const clearFocus = useChat((state) => state.clearFocus);
  const plans = usePlans((state) => state.plans);
  const stores = useStores();
  // The cards' Undo hears undos that did not happen, however they were asked for (Approvals, the audit trail).
  useEffect(() => stores.cardUndo.getState().connect(), [stores]);
  const anchors = usePlans((state) => state.anchors);
  const lineage = useAgentLineage(items, endedRuns, startedChildren, storedLineage);
  const childRunIds = useMemo(
    () => new Set(lineage.nodes.flatMap((node) => (node.parentRunId === null ? [] : [node.runId]))),
    [lineage.nodes],
  );
  // A plan's question is asked in its step, once, and answered there.
  const said = useMemo(
    () => withoutPlanDialogue(items, plans, anchors, threadId),
    [items, plans, anchors, threadId],
  );
  // A search hit on a plan's question, or on the answer to it, opens the conversation at the step that says it.
  const focus = useMemo<FoundPlace | null>(() => {
    if (focusMessageId === null) return null;
    const step = stepSaying(focusMessageId, items, plans, anchors, threadId);
    return step ? { rowId: planRowId(step.planId), stepId: step.stepId } : { rowId: focusMessageId };
  }, [focusMessageId, items, plans, anchors, threadId]);
  // A planned call's card sits inside its step, in the plan tree under the request.
  const shown = useMemo(() => {
    const marked = markRepeats(said, childRunIds);
    const planned = plannedActionIds(plans);
    if (planned.size === 0) return marked;
    const cards = toolCardIds(said);
    return marked.filter((item) =>
      item.kind === 'tool'
        ? !planned.has(item.id)
        : item.kind !== 'approval' || !planned.has(item.actionId) || !cards.has(item.actionId),
    );
  }, [said, plans, childRunIds]);
  const extras = useMemo<RowExtras>(
    () => ({
      plans: Object.values(plans).map((plan) => ({ plan, runId: anchors[plan.id] ?? plan.runId })),
      nodes: lineage.nodes,
      artifacts: lineage.artifacts,
    }),
    [plans, anchors, lineage.nodes, lineage.artifacts],
  );
  const sectionRef = useRef<HTMLElement>(null);
  // Follow the stream only while the reader is at the bottom; someone scrolling back keeps their place.
  const isPinned = useRef(true);
  // Where a revealed approval card put the scroll: following stays off until the person scrolls to the end.
  const heldAt = useRef<number | null>(null);
  // The element that was revealed, held in place while the rows around it are measured.
  const revealed = useRef<HTMLElement | null>(null);
  const isBusy = isStarting || activeRun !== null;

  const onScroll = () => {
    const section = sectionRef.current;
    if (!section) return;
    const isAtEnd = section.scrollHeight - section.scrollTop - section.clientHeight < 80;
    // The card's own scroll (which may end near the bottom) does not start following again; the person's does.
    if (heldAt.current !== null && (!isAtEnd || Math.abs(section.scrollTop - heldAt.current) <= 1)) return;
    heldAt.current = null;
    revealed.current = null;
    isPinned.current = isAtEnd;
  };

  // A new approval card asks to be shown from its title: the conversation stops following the end for it, and
  // holds it there until the person scrolls. The rows around it may not be measured yet (a conversation opened
  // at its card from the approvals list): as each one takes its real height the card is put back, or it would
  // be pushed out of view under rows that were counted at a guessed height.
  const place = useCallback((element: HTMLElement) => {
    const section = sectionRef.current;
    if (!section) return;
    const top = element.getBoundingClientRect().top - section.getBoundingClientRect().top + section.scrollTop;
    const viewport = section.clientHeight;
    section.scrollTop = revealedScrollTop({ top, height: element.offsetHeight, viewport });
    heldAt.current = section.scrollTop;
  }, []);
  const reveal = useCallback(
    (element: HTMLElement) => {
      const section = sectionRef.current;
      if (!section?.contains(element)) return element.scrollIntoView({ block: 'center' });
      isPinned.current = false;
      revealed.current = element;
      place(element);
    },
    [place],
  );
  const keepRevealed = useCallback(() => {
    const element = revealed.current;
    if (element?.isConnected) place(element);
  }, [place]);
  // Scrolling by wheel, touch, the scroll bar or the keyboard is the person's own: the card is theirs to leave.
  const release = () => {
    revealed.current = null;
  };

  // Once the approval the card waited on is answered, the run goes on: following the end resumes with it. A run
  // waiting for the person is not active here, so that is a change from no active run to one. (Only that change:
  // the card may be shown a moment before the run says it waits.)
  const runStatus = activeRun?.status;
  const wasWaiting = useRef(true);
  useEffect(() => {
    const isWaiting = runStatus === undefined || runStatus === 'awaiting_confirmation';
    const isAnswered = wasWaiting.current && !isWaiting;
    wasWaiting.current = isWaiting;
    if (!isAnswered || heldAt.current === null) return;
    heldAt.current = null;
    revealed.current = null;
    isPinned.current = true;
  }, [runStatus]);

  // Sending again (or opening another conversation) follows the end again, wherever the reader was.
  const questions = useMemo(
    () => items.filter((item) => item.kind === 'message' && item.role === 'user').length,
    [items],
  );
  useLayoutEffect(() => {
    const section = sectionRef.current;
    isPinned.current = true;
    heldAt.current = null;
    revealed.current = null;
    if (section) section.scrollTop = section.scrollHeight;
  }, [questions, threadId]);

  return (
    <section
      className="conversation"
      aria-labelledby="conversation-title"
      ref={sectionRef}
      onScroll={onScroll}
      onWheel={release}
      onTouchStart={release}
      onPointerDown={release}
      onKeyDown={release}
      data-testid="conversation"
    >
      {/* The card titles inside are h3: this keeps the outline whole under the window's h1. */}
      <h2 id="conversation-title" className="visually-hidden">
        Conversation
      </h2>
      {isLoading && <p className="conversation__loading">Loading conversation…</p>}
      {error && (
        <p className="run-error" role="alert">
          {error}
        </p>
      )}
      {/* aria-busy holds screen-reader announcements until the streamed answer is complete. The log role
          sits on a wrapper: on the <ol> itself it would stop the entries being read as a list. */}
      <div role="log" aria-live="polite" aria-busy={isBusy}>
        <RevealContext.Provider value={reveal}>
          <MessageList
            items={shown}
            usage={usage}
            scrollRef={sectionRef}
            isPinned={isPinned}
            onLayout={keepRevealed}
            extras={extras}
            focus={focus}
            onFocused={clearFocus}
          />
        </RevealContext.Provider>
      </div>
      <ApprovalAnnouncer items={items} />
      {isBusy ? <RunStatusLine /> : <RegenerateButton items={said} />}
    </section>
  );
}
