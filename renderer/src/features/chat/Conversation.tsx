import { useEffect, useRef } from 'react';
import { useChat, usePlans, useStores } from '../../stores';
import { AgentTimeline } from '../agents/AgentTimeline';
import { PlanSlot } from '../plans/PlanTree';
import { plannedActionIds } from '../plans/plans-model';
import { ApprovalSlot } from '../approvals/ApprovalSlot';
import { MessageView } from './MessageView';
import { RUN_MARK_TEXT } from './run-marks';
import { runStatusText } from './run-status';
import { ToolCallCard } from './ToolCallCard';
import type { TimelineItem } from './timeline';

function TimelineEntry({ item, planned }: { item: TimelineItem; planned: Set<string> }) {
  switch (item.kind) {
    case 'message':
      // A plan sits under the request that made it.
      return item.role === 'user' ? (
        <>
          <MessageView message={item} />
          <PlanSlot runId={item.runId} />
        </>
      ) : (
        <MessageView message={item} />
      );
    case 'tool':
      // A planned call's card sits inside its step.
      return planned.has(item.id) ? null : <ToolCallCard call={item} />;
    case 'approval':
      return (
        <li className="timeline__approval">
          <ApprovalSlot actionId={item.actionId} snapshot={item.approval} />
        </li>
      );
    case 'error':
      return (
        <li className="run-error" role="alert" data-testid="run-error" data-code={item.code}>
          <strong>Deputy couldn’t finish.</strong> {item.message}
        </li>
      );
    case 'notice':
      return (
        <li className="run-notice" data-testid="run-notice">
          {item.text}
        </li>
      );
    case 'mark':
      return (
        <li className={`run-mark run-mark--${item.mark}`} data-testid="run-mark" data-mark={item.mark}>
          {RUN_MARK_TEXT[item.mark]}
        </li>
      );
  }
}

export function Conversation() {
  const items = useChat((state) => state.conversation.items);
  const activeRun = useChat((state) => state.conversation.activeRun);
  const endedRuns = useChat((state) => state.conversation.endedRunIds.length);
  const isStarting = useChat((state) => state.isStarting);
  const isLoading = useChat((state) => state.isLoadingThread);
  const error = useChat((state) => state.threadError);
  const threadId = useChat((state) => state.conversation.threadId);
  const plans = usePlans((state) => state.plans);
  const stores = useStores();
  useEffect(() => stores.plans.getState().connect(), [stores]);
  useEffect(() => {
    if (threadId) void stores.plans.getState().loadThread(threadId);
  }, [stores, threadId]);
  const planned = plannedActionIds(plans);
  const sectionRef = useRef<HTMLElement>(null);
  // Follow the stream only while the reader is at the bottom; someone scrolling back keeps their place.
  const isPinned = useRef(true);
  const isBusy = isStarting || activeRun !== null;

  useEffect(() => {
    const section = sectionRef.current;
    if (section && isPinned.current) section.scrollTop = section.scrollHeight;
  }, [items, isBusy]);

  const onScroll = () => {
    const section = sectionRef.current;
    if (section) isPinned.current = section.scrollHeight - section.scrollTop - section.clientHeight < 80;
  };

  return (
    <section
      className="conversation"
      aria-labelledby="conversation-title"
      ref={sectionRef}
      onScroll={onScroll}
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
        <ol className="timeline" data-testid="timeline">
          <AgentTimeline
            items={items}
            endedRuns={endedRuns}
            renderItem={(item) => <TimelineEntry key={item.id} item={item} planned={planned} />}
          />
        </ol>
      </div>
      {isBusy && (
        <p className="conversation__status" role="status" data-testid="run-status">
          {runStatusText(activeRun?.status ?? 'queued', activeRun?.queuePosition)}
        </p>
      )}
    </section>
  );
}
