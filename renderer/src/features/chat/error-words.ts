/**
 * What a person reads when a run or a send fails: a plain sentence per error code. The host's own message
 * (which may name an address or a low-level code) is kept for the details disclosure only.
 */
import { MODEL_FAILURE_WORDS as GEMINI } from '../../../../shared/model-failure-words';
import { NO_GEMINI_KEY_MESSAGE } from '../../../../shared/no-gemini-key';
import { isPlanCancelledWords } from '../../../../shared/rejection-words';

/** What happened, and the advice to try again: only the first still holds once a later turn has answered. */
const FRIENDLY: Record<string, readonly [said: string, retryAdvice?: string]> = {
  model_not_configured: [NO_GEMINI_KEY_MESSAGE],
  model_key_rejected: ['Gemini didn’t accept Deputy’s API key. Check the key in Settings → Connections.'],
  model_unavailable: [GEMINI.model_unavailable, 'Check your internet connection, then try again.'],
  model_rate_limited: [GEMINI.model_rate_limited, 'Wait a minute, then try again.'],
  model_server_error: [GEMINI.model_server_error, 'Try again in a moment.'],
  model_timeout: [GEMINI.model_timeout],
  model_bad_response: [GEMINI.model_bad_response, 'Try again.'],
  model_blocked: [GEMINI.model_blocked],
  step_limit: ['Deputy took too many steps and stopped before finishing.'],
  incomplete: ['Deputy stopped before finishing the task.'],
  rate_limited: ['You have reached the limit of runs for now.', 'Try again later.'],
  approval_expired: ['The approval waited too long and expired, so Deputy stopped.'],
  disconnected: ['Lost the connection to Deputy.', 'Check that it is still running, then try again.'],
  stop_unanswered: [
    'Lost the connection to Deputy before it answered Stop.',
    'Press Stop again once it reconnects.',
  ],
  unauthorized: ['Deputy didn’t accept this window’s access token. Open the link Deputy printed again.'],
  service_unavailable: ['A service Deputy needed could not be reached.', 'Try again in a moment.'],
  too_many: ['Deputy is busy with too many requests.', 'Try again in a moment.'],
  invalid_input: ['Deputy couldn’t accept that message.'],
};

const FALLBACK = 'Deputy couldn’t finish this.';

/** A failure for want of a Gemini key, read once a key has been saved. */
export const KEY_SAVED_NOW = 'Deputy had no Gemini API key then. One is saved now: Retry asks again.';

/**
 * The line for a failure. Once the person has asked again (Retry, Ask again, or a new question), "try again"
 * is advice already taken, and under the newer answer it would read as if that had failed too: it is left out.
 */
export function friendlyError(code: string | undefined, { hasLaterTurn = false } = {}): string {
  const words = code ? FRIENDLY[code] : undefined;
  if (!words) return FALLBACK;
  const [said, retryAdvice] = words;
  return retryAdvice && !hasLaterTurn ? `${said} ${retryAdvice}` : said;
}

const NOT_RETRYABLE = new Set([
  'invalid_input',
  'model_blocked',
  'model_not_configured',
  'model_key_rejected',
  // A Stop that went unanswered: Stop itself is what to press again, not the question.
  'stop_unanswered',
]);

/** Failures that Settings → Connections puts right: no Gemini key, or one Gemini refused. */
export const isKeyProblem = (code: string | undefined): boolean =>
  code === 'model_not_configured' || code === 'model_key_rejected';

/** Errors worth a Retry: trying the same thing again may well work. */
export function isRetryable(code: string | undefined): boolean {
  return !NOT_RETRYABLE.has(code ?? '');
}

/** A run that ended because the person stopped it (or sent a new message over its approval): not a failure. */
export const isStoppedCode = (code: string | null | undefined): boolean => code === 'cancelled';

/** A run that ended because the person cancelled its plan: it says "Cancelled", as the plan's tree does. */
export const isPlanCancelledEnding = (error: { code?: string | null; message: string }): boolean =>
  isStoppedCode(error.code) && isPlanCancelledWords(error.message);
