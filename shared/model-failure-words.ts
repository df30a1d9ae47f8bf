/**
 * What a person reads when Gemini fails, by the run's error code: the chat's error line and the notice while
 * Deputy waits to try again say the same thing. Gemini's own text and status codes are for the details only.
 */
export const MODEL_FAILURE_WORDS = {
  model_unavailable: 'Deputy couldn’t reach Gemini.',
  model_rate_limited: 'Gemini is busy right now.',
  model_server_error: 'Gemini had a problem answering.',
  model_timeout: 'Gemini took too long to answer.',
  model_bad_response: 'Gemini couldn’t answer this request.',
  model_blocked: 'Gemini declined to answer this request.',
} as const satisfies Record<string, string>;

/** Who a notice of the run's own model calls is from (the tool field of its event): Gemini, not a tool. */
export const MODEL_NOTICE_SOURCE = 'gemini';

export function modelFailureWords(code: string): string {
  return Object.hasOwn(MODEL_FAILURE_WORDS, code)
    ? MODEL_FAILURE_WORDS[code as keyof typeof MODEL_FAILURE_WORDS]
    : 'Gemini couldn’t answer.';
}
