import { useContext, useEffect } from 'react';
import { useChat, useStores } from '../../stores';
import { useIsGeminiConfigured } from '../connections/use-gemini-configured';
import {
  friendlyError,
  isKeyProblem,
  isPlanCancelledEnding,
  isRetryable,
  isStoppedCode,
  KEY_SAVED_NOW,
} from './error-words';
import { OpenConnections } from './open-connections';
import { OpenConnectionsButton } from './OpenConnectionsButton';
import type { RowProps } from './timeline-entry';
import type { TimelineItem } from './timeline';
import { isAskedAgainAfter, isInLastTurn } from './turns';
import { PutInBox } from './box-draft';

type RunError = Extract<TimelineItem, { kind: 'error' }>;

/**
 * A failed run or send, in plain words with a Retry; the host's message (addresses, codes) sits behind a
 * disclosure. A run the person stopped is not a failure: it reads "Stopped", quietly, with Ask again ("Cancelled" when
 * they cancelled its plan, as the plan's tree says); so does a run whose approval expired, in its own words.
 * A cancelled plan keeps Ask again too: cancelling turns down that plan, not the question, and asking again is a
 * new request whose new plan the person sees, as the first, before any of it that waits for them is done.
 * An earlier one, followed by something newer, is not asked again from its place (the question would come after
 * a newer answer, and run at once whatever the newer answers did meanwhile): "Edit and ask again" puts it in the
 * message box, where nothing happens until the person has read it and pressed Send.
 */
export function RunErrorView({ error, row }: { error: RunError; row: RowProps }) {
  const retry = useChat((state) => state.retry);
  const isBusy = useChat((state) => state.isStarting || state.conversation.activeRun !== null);
  // Only the last turn's failure offers it: an earlier one was followed by something newer.
  const isLatest = useChat((state) => isInLastTurn(state.conversation.items, error.id));
  const canRetry = useChat((state) => isLatest && state.promptOf(error) !== null);
  const openConnections = useContext(OpenConnections);
  const putInBox = useContext(PutInBox);
  // Not when it was asked again at once: the "You asked again" under it says that, and its answer follows.
  const earlierPrompt = useChat((state) => {
    const prompt = isLatest || error.code === 'stop_unanswered' ? null : state.promptOf(error);
    return prompt !== null && !isAskedAgainAfter(state.conversation.items, error.id, prompt) ? prompt : null;
  });
  // Small, as Ask again is: a failure followed by something newer is no longer news.
  const editAgain = (isMark: boolean) =>
    putInBox &&
    earlierPrompt !== null && (
      <button
        type="button"
        className={`button button--small${isMark ? ' run-mark__action' : ''}`}
        data-testid="run-edit-again"
        onClick={() => putInBox(earlierPrompt)}
      >
        Edit and ask again
      </button>
    );
  // A run that failed for want of a key is worth asking again once one is saved.
  const hasKeyNow = useIsGeminiConfigured() === true && error.code === 'model_not_configured';
  // Until one is, the connections are followed, so a key saved any way (Settings, the API, another window) is heard.
  const { connections } = useStores();
  const isWaitingForKey = isLatest && error.code === 'model_not_configured' && !hasKeyNow;
  useEffect(
    () => (isWaitingForKey ? connections.getState().follow() : undefined),
    [isWaitingForKey, connections],
  );
  // Nor is a run that ended because nobody answered its approval in time: said as quietly, with Ask again.
  const isExpired = error.code === 'approval_expired';
  if (isStoppedCode(error.code) || isExpired) {
    const isPlanCancelled = isPlanCancelledEnding(error);
    return (
      <li
        className={`run-mark run-mark--${isExpired ? 'expired' : 'stopped'}`}
        data-testid={isExpired ? 'run-expired' : isPlanCancelled ? 'run-cancelled' : 'run-stopped'}
        {...row}
      >
        {isExpired ? friendlyError(error.code) : isPlanCancelled ? 'Cancelled' : 'Stopped'}
        {canRetry && (
          <button
            type="button"
            className="button button--small run-mark__action"
            data-testid="run-ask-again"
            disabled={isBusy}
            onClick={() => void retry(error)}
          >
            Ask again
          </button>
        )}
        {editAgain(true)}
      </li>
    );
  }
  // The key it lacked is saved now: the words say so beside Retry, not still ask for one.
  const friendly = hasKeyNow ? KEY_SAVED_NOW : friendlyError(error.code, { hasLaterTurn: !isLatest });
  return (
    <li className="run-error" data-testid="run-error" data-code={error.code} {...row}>
      {/* The alert is inside the row: on the <li> itself it would stop the row being a list item. An earlier
          turn's failure is no longer news: its words change quietly, without being announced again. */}
      <p className="run-error__text" role={isLatest ? 'alert' : undefined}>
        {friendly}
      </p>
      <div className="run-error__actions">
        {openConnections && isLatest && isKeyProblem(error.code) && !hasKeyNow && (
          <OpenConnectionsButton testId="run-error-open-connections" onOpen={openConnections} />
        )}
        {canRetry && (isRetryable(error.code) || hasKeyNow) && (
          <button
            type="button"
            className="button"
            data-testid="run-error-retry"
            disabled={isBusy}
            onClick={() => void retry(error)}
          >
            Retry
          </button>
        )}
        {editAgain(false)}
        {error.message && error.message !== friendly && (
          <details className="run-error__details">
            <summary>Details</summary>
            {/* The code is for the program (data-code on the row), not words for the person. */}
            <p data-testid="run-error-details">{error.message}</p>
          </details>
        )}
      </div>
    </li>
  );
}
