import { DeputyError } from '../../shared/contract';

/** Deeper than any contract input needs; shallow enough that nothing recursing into it can run out of stack. */
export const MAX_INPUT_DEPTH = 32;

/**
 * Checks a value that came from outside (an HTTP body, a WebSocket message, an IPC argument) before any
 * schema, redactor or serializer recurses into it: nesting deeper than MAX_INPUT_DEPTH and NUL characters
 * (which SQLite and C strings read as an end of text) are the client's mistake, answered with a 400.
 * The walk is iterative, so the check itself cannot overflow the stack.
 */
export function checkClientInput(value: unknown): void {
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const { value: next, depth } = stack.pop() as { value: unknown; depth: number };
    if (typeof next === 'string') {
      if (next.includes('\u0000')) throw nulCharacter();
      continue;
    }
    if (next === null || typeof next !== 'object') continue;
    if (depth >= MAX_INPUT_DEPTH) {
      throw new DeputyError('invalid_input', `The input is nested deeper than ${MAX_INPUT_DEPTH} levels.`);
    }
    for (const [key, child] of Object.entries(next)) {
      if (key.includes('\u0000')) throw nulCharacter();
      stack.push({ value: child, depth: depth + 1 });
    }
  }
}

const nulCharacter = (): DeputyError =>
  new DeputyError(
    'invalid_input',
    'The input contains a NUL character (\\u0000), which Deputy does not accept.',
  );
