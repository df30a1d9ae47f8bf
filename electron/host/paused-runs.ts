import type { RunResponse, RunStatus } from '../../shared/contract';
import { inCallOrder, openCalls, parseRunState, type ResultPart, type RunState } from '../engine/run-state';
import type { ModelMessage } from '../llm/model-client';
import type { StoredApproval } from '../store/approvals-repo';
import type { Store } from '../store/store';

/** A paused run's state as its last checkpoint (or, before any, its run row) holds it; null if it does not read. */
export function loadRunState(store: Store, runId: string): RunState | null {
  const checkpoint = store.checkpoints.load(runId);
  return parseRunState(checkpoint?.state ?? store.runs.loadState(runId));
}

/** Whether a run with this status has ended, for good. */
export const isEnded = (status: RunStatus | undefined): status is 'completed' | 'failed' =>
  status === 'completed' || status === 'failed';

/** The answer to a decision whose run went on without it (picked up again after a restart): where it stands. */
export function whereRunStands(store: Store, runId: string, approval: StoredApproval): RunResponse {
  const run = store.runs.get(runId);
  const status = run && isEnded(run.status) ? run.status : 'awaiting_confirmation';
  return {
    ok: status !== 'failed',
    runId,
    threadId: approval.threadId,
    actionId: approval.actionId,
    model: run?.model ?? '',
    status,
    summary: run?.summary ?? '',
    mode: status === 'awaiting_confirmation' ? 'approval_required' : 'tool_call',
    tool: approval.tool,
  };
}

/** The paused run's history with every call that never ran answered, so the model never sees an unanswered call. */
export function answeredHistory(state: RunState, message: string): ModelMessage[] {
  const unanswered = openCalls(state);
  const results: ResultPart[] = inCallOrder(state.messages, [
    ...state.turnResults,
    ...unanswered.map((call): ResultPart => ({
      kind: 'result',
      callId: call.callId,
      name: call.name,
      result: { error: { code: 'not_run', message } },
    })),
  ]);
  return [...state.messages, ...(results.length > 0 ? [{ role: 'user' as const, parts: results }] : [])];
}
