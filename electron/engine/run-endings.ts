import type { RunResponse } from '../../shared/contract';
import type { StoredApproval } from '../store/approvals-repo';
import type { RunFailure } from './model-failure';
import type { RunLoopDeps, RunSpec } from './run-deps';
import type { LastAction, RunState } from './run-state';

const base = (spec: RunSpec, lastAction: LastAction | null) => ({
  runId: spec.runId,
  threadId: spec.threadId,
  actionId: lastAction?.id ?? spec.runId,
  model: spec.model,
  ...(lastAction && { tool: lastAction.tool, toolArgs: lastAction.args }),
});

function saveAssistantText(deps: RunLoopDeps, spec: RunSpec, text: string): void {
  const now = deps.now().toISOString();
  deps.store.threads.addMessage({
    id: deps.newId(),
    threadId: spec.threadId,
    runId: spec.runId,
    role: 'assistant',
    text,
    createdAt: now,
  });
  deps.store.threads.touch(spec.threadId, now);
}

export { saveAssistantText };

export function completeRun(
  deps: RunLoopDeps,
  spec: RunSpec,
  state: RunState,
  text: string,
  outcome?: { decision: string; outcome: string },
): RunResponse {
  const { lastAction } = state;
  const response: RunResponse = {
    ok: true,
    ...base(spec, lastAction),
    status: 'completed',
    summary: text,
    mode: lastAction ? 'tool_call' : 'assistant_text',
    ...(lastAction?.result && { output: lastAction.result }),
  };
  deps.store.transaction(() => {
    deps.store.runs.end(
      spec.runId,
      {
        status: 'completed',
        mode: response.mode,
        summary: text,
        decision: outcome?.decision ?? (lastAction ? 'INVOKE_TOOL' : 'RESPOND_ONLY'),
        outcome: outcome?.outcome ?? (lastAction ? 'SUCCESS:TASK_COMPLETED' : 'SUCCESS:RESPONSE_GIVEN'),
        errorCode: null,
        errorMessage: null,
      },
      deps.now().toISOString(),
    );
    deps.store.runs.saveState(spec.runId, state, deps.now().toISOString());
    deps.emit({ type: 'status', runId: spec.runId, threadId: spec.threadId, status: 'completed' });
    deps.emit({ type: 'result', runId: spec.runId, threadId: spec.threadId, result: response });
  });
  return response;
}

export function failRun(
  deps: RunLoopDeps,
  spec: RunSpec,
  state: RunState,
  failure: RunFailure,
  outcome = `ERROR:${failure.code.toUpperCase()}`,
): RunResponse {
  const { lastAction } = state;
  const response: RunResponse = {
    ok: false,
    ...base(spec, lastAction),
    status: 'failed',
    summary: failure.message,
    mode: lastAction ? 'tool_call' : 'assistant_text',
  };
  const ids = { runId: spec.runId, threadId: spec.threadId };
  deps.store.transaction(() => {
    deps.store.runs.end(
      spec.runId,
      {
        status: 'failed',
        mode: response.mode,
        summary: failure.message,
        decision: lastAction ? 'INVOKE_TOOL' : 'RESPOND_ONLY',
        outcome,
        errorCode: failure.code,
        errorMessage: failure.message,
      },
      deps.now().toISOString(),
    );
    deps.store.runs.saveState(spec.runId, state, deps.now().toISOString());
    deps.emit({ type: 'error', ...ids, error: failure.message, code: failure.code });
    deps.emit({ type: 'status', ...ids, status: 'failed' });
    deps.emit({ type: 'result', ...ids, result: response });
  });
  return response;
}

/** Stops the run where it is, with its state stored, until the user decides on the approval. */
export function pauseRun(
  deps: RunLoopDeps,
  spec: RunSpec,
  state: RunState,
  approval: StoredApproval,
): RunResponse {
  const summary = `Waiting for your approval: ${approval.preview.title}`;
  const response: RunResponse = {
    ok: true,
    runId: spec.runId,
    threadId: spec.threadId,
    actionId: approval.actionId,
    model: spec.model,
    status: 'awaiting_confirmation',
    summary,
    mode: 'approval_required',
    tool: approval.tool,
    toolArgs: approval.args,
    approval: {
      id: approval.id,
      tool: approval.tool,
      reason: approval.reason,
      preview: approval.previewText,
    },
  };
  const ids = { runId: spec.runId, threadId: spec.threadId };
  deps.store.transaction(() => {
    deps.store.runs.end(
      spec.runId,
      {
        status: 'awaiting_confirmation',
        mode: 'approval_required',
        summary,
        decision: 'INVOKE_TOOL',
        outcome: 'PENDING:APPROVAL',
        errorCode: null,
        errorMessage: null,
      },
      deps.now().toISOString(),
    );
    deps.store.runs.saveState(spec.runId, state, deps.now().toISOString());
    deps.emit({ type: 'status', ...ids, status: 'awaiting_confirmation' });
    deps.emit({ type: 'result', ...ids, result: response });
  });
  return response;
}
