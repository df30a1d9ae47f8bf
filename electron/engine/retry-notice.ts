import { isoTime } from '../../shared/iso-time';
import { modelFailureWords } from '../../shared/model-failure-words';
import { summarizeToolCall } from '../../shared/tool-summaries';
import type { ModelErrorKind } from '../llm/model-client';
import { SERVICE_NAME } from '../tools/service-errors';
import type { Tool } from '../tools/tool';
import { modelErrorCode } from './model-failure';

/**
 * What a person reads while Deputy waits to try a failed step again: what went wrong in their words, then the
 * wait. The service's own message (its text, HTTP codes, addresses) is for the model and the error's details.
 */
const trying = (delayMs: number): string => `Trying again in ${Math.max(1, Math.ceil(delayMs / 1000))} s.`;

/** When the step waiting `delayMs` from `now` is tried again: the notice's `retryAt`. */
export const retryAt = (now: Date, delayMs: number): string => isoTime(new Date(now.getTime() + delayMs));

export function modelRetryNotice(kind: ModelErrorKind, delayMs: number): string {
  return `${modelFailureWords(modelErrorCode(kind))} ${trying(delayMs)}`;
}

const lowerFirst = (text: string): string => text.charAt(0).toLowerCase() + text.slice(1);

export function toolRetryNotice(
  tool: Pick<Tool, 'name' | 'requires'>,
  args: Record<string, unknown>,
  errorCode: string,
  delayMs: number,
  /** What the person knows the ids in `args` by (the tool's `names`), as the call's card reads them. */
  names?: Record<string, string>,
): string {
  const service = tool.requires ? SERVICE_NAME[tool.requires] : null;
  const said =
    errorCode === 'rate_limited' && service
      ? `${service} is busy right now.`
      : `Couldn’t ${lowerFirst(summarizeToolCall(tool.name, args, false, { names }))}.`;
  return `${said} ${trying(delayMs)}`;
}
