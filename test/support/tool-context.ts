import type { ToolContext } from '../../electron/tools/tool';

/** The context a tool is called with, for a test that calls `execute` directly: one run, one call, never stopped. */
export function toolContext(now: Date, runId = 'run-1'): ToolContext {
  return {
    runId,
    threadId: 't',
    actionId: 'a',
    idempotencyKey: 'k',
    signal: new AbortController().signal,
    now: () => new Date(now),
  };
}
