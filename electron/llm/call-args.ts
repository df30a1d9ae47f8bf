import { isNestedDeeperThan } from '../../shared/nesting';

/**
 * Gemini's API takes a call's args as a JSON object (a protobuf Struct) and refuses a request whose history
 * holds anything else (HTTP 400). The model may still send an array or a string: such a call is kept with
 * `{}` as its args, so its record can go back to Gemini, and the engine refuses it.
 */
export type CallArgs = { args: Record<string, unknown>; sentAs?: string };

/**
 * Deeper than any tool's arguments need. Past it the engine's serializers, redactor and checkpoint diff, which
 * recurse, would run out of stack (a model's call nested 10,000 levels deep failed its run as an internal error).
 */
export const MAX_ARGS_DEPTH = 32;

/** The args as an object; `sentAs` says what came instead ("an array", "a string"…) when it was not one. */
export function callArgs(raw: unknown): CallArgs {
  // No args (or null, a Struct left unset) is an empty object, as Gemini means it.
  if (raw === undefined || raw === null) return { args: {} };
  if (Array.isArray(raw)) return { args: {}, sentAs: 'an array' };
  if (typeof raw === 'object') {
    if (isNestedDeeperThan(raw, MAX_ARGS_DEPTH))
      return { args: {}, sentAs: `one nested more than ${MAX_ARGS_DEPTH} levels deep` };
    return { args: raw as Record<string, unknown> };
  }
  return { args: {}, sentAs: `a ${typeof raw}` };
}
