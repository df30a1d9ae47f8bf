import { useState } from 'react';
import { useChat } from '../../stores';
import { useNow } from '../../use-now';
import { isStopping } from './chat-state';
import { isWaitingForApproval, runActivityText, runStatusText } from './run-status';

/** How long a working run may stay silent before the window says so. */
export const SILENCE_MS = 25_000;

/**
 * The line under a running conversation. When the model has said nothing for a while it says "Still waiting…"
 * and offers Stop or Keep waiting (which asks again after the same quiet time).
 */
export function RunStatusLine() {
  const activeRun = useChat((state) => state.conversation.activeRun);
  const lastActivityAt = useChat((state) => state.lastActivityAt);
  const isChildWaiting = useChat((state) => isWaitingForApproval(state.conversation.items));
  const stop = useChat((state) => state.stop);
  const isStopAsked = useChat(isStopping);
  const [keptWaitingAt, setKeptWaitingAt] = useState(0);
  // A parent waiting on its child's approval waits for the person, not for Gemini.
  const status = isChildWaiting ? 'awaiting_confirmation' : (activeRun?.status ?? 'queued');
  const isWorking = status !== 'awaiting_confirmation';
  // Read every second: the silence below, and the moment a step waiting to be tried again is tried.
  const now = useNow(1_000, isWorking);
  const activity = useChat((state) => {
    const run = state.conversation.activeRun;
    return run ? runActivityText(run.runId, state.conversation.items, now) : null;
  });
  const quietSince = Math.max(lastActivityAt, keptWaitingAt);
  const isSilent = isWorking && now - quietSince >= SILENCE_MS;

  if (isSilent) {
    return (
      <div className="conversation__status conversation__status--silent" data-testid="run-silent">
        <p role="status">{isStopAsked ? 'Stopping…' : 'Still waiting for Gemini to answer…'}</p>
        <button type="button" className="button button--stop" onClick={() => void stop()}>
          {isStopAsked ? 'Stopping…' : 'Stop'}
        </button>
        <button type="button" className="button" onClick={() => setKeptWaitingAt(Date.now())}>
          Keep waiting
        </button>
      </div>
    );
  }
  return (
    <p className="conversation__status" role="status" data-testid="run-status">
      {isStopAsked ? 'Stopping…' : (activity ?? runStatusText(status, activeRun?.queuePosition))}
    </p>
  );
}
