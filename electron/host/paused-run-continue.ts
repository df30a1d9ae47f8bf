import { DeputyError, type RunResponse } from '../../shared/contract';
import { settle } from '../engine/call-execution';
import { refusePausedApproval, rejectAction, runApproved } from '../engine/call-approval';
import { driveRun } from '../engine/run-loop';
import type { StoredApproval } from '../store/approvals-repo';
import type { ApprovalDeskDeps } from './approval-desk-deps';
import { isEnded, loadRunState, whereRunStands } from './paused-runs';

/** A reject verdict's `code` is what the model reads beside its message; the person's own refusal by default. */
export type Verdict = { kind: 'approve' } | { kind: 'reject'; message: string; code?: string };

/**
 * Acts on one decision about a call its run paused for, and goes on with the run once nothing of its turn is
 * held any more. The decision itself is already claimed; a run that can no longer go on is a conflict.
 */
export function continuePausedRun(
  deskDeps: ApprovalDeskDeps,
  approval: StoredApproval,
  verdict: Verdict,
): Promise<RunResponse> {
  const { store } = deskDeps;
  const run = store.runs.get(approval.runId);
  if (!run || !loadRunState(store, run.id)?.awaiting.some((entry) => entry.approvalId === approval.id)) {
    throw new DeputyError('conflict', 'The run behind this approval can no longer be continued.');
  }
  return deskDeps.track(run, async (signal) => {
    // Read inside the tracked work: a decision taken just before this one has landed by now.
    const state = loadRunState(store, run.id);
    const held = state?.awaiting.find((entry) => entry.approvalId === approval.id);
    // The run went on without waiting for this (it was picked up again after a restart and acted on the
    // decision itself): answer with where it stands, never run it a second time. Nor is a run that ended while
    // the decision waited behind its work (the person stopped it) started again: its ending refused the call.
    if (!state || !held || isEnded(store.runs.get(run.id)?.status))
      return whereRunStands(store, run.id, approval);
    const deps = deskDeps.runDeps();
    const spec = deskDeps.specFor(run, signal);
    const scope = { deps, spec, state };
    deps.emit({ type: 'status', runId: run.id, threadId: run.threadId, status: 'executing' });
    if (verdict.kind === 'approve' && deskDeps.settings.get().areSideEffectsPaused) {
      // Paused since the decision (it waited behind the run's other work): not done, as in the engine.
      refusePausedApproval(scope, held.call, approval.actionId, approval.tool);
    } else if (verdict.kind === 'reject') {
      rejectAction(scope, approval.actionId, approval.tool, verdict.message, () =>
        settle(
          scope,
          held.call,
          { error: { code: verdict.code ?? 'rejected_by_user', message: verdict.message } },
          null,
        ),
      );
    } else {
      deps.emit({
        type: 'tool_call',
        runId: run.id,
        threadId: run.threadId,
        actionId: approval.actionId,
        tool: approval.tool,
        args: approval.args,
        state: 'executing',
      });
      await runApproved(
        scope,
        held.call,
        approval.actionId,
        approval.tool,
        approval.args,
        approval.fingerprint,
      );
    }
    // The loop pauses again if other calls of the turn are still held, and acts on any decided meanwhile.
    return driveRun(deps, spec, state);
  });
}
