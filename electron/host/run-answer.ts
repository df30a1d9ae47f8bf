import type { RunResponse } from '../../shared/contract';

/**
 * A run's answer from its row alone, with no tool or output: a run that ended without work (refused, stopped
 * while queued) or whose ending is not (or no more) recorded here.
 */
export function plainAnswer(
  runId: string,
  run: { threadId: string; model: string } | null,
  status: 'completed' | 'failed',
  summary: string,
): RunResponse {
  return {
    ok: status === 'completed',
    runId,
    threadId: run?.threadId ?? '',
    model: run?.model ?? '',
    actionId: runId,
    status,
    summary,
    mode: 'assistant_text',
  };
}
