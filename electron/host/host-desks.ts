import { randomUUID } from 'node:crypto';
import type { RunEvent } from '../../shared/contract';
import { newRowId } from '../store/row-ids';
import { AgentsDesk } from './agents-desk';
import { ApprovalDesk } from './approval-desk';
import type { ApprovalsBus } from './approvals-bus';
import { AuditDesk } from './audit-desk';
import { ClientCalls } from './client-calls';
import { DataDesk } from './data-desk';
import type { HostDeps } from './host-deps';
import type { HostRuns } from './host-runs';
import { PlanDesk } from './plan-desk';
import { SideEffectsSwitch } from './side-effects-switch';
import { ENDED_BY_DEPUTY } from '../engine/settled-by-deputy';

/** The host's desks: each answers one part of the contract, over the same runs. */
export interface Desks {
  approvals: ApprovalDesk;
  data: DataDesk;
  clientCalls: ClientCalls;
  audit: AuditDesk;
  sideEffects: SideEffectsSwitch;
  agents: AgentsDesk;
  plans: PlanDesk;
}

/** Makes the desks and wires them to the runs and to each other (a desk made later is reached when used). */
export function composeDesks(deps: HostDeps, runs: HostRuns, approvalsBus: ApprovalsBus): Desks {
  const { store, registry, settings, now } = deps;
  const emit = (event: RunEvent) => runs.emit(event);
  const track: HostRuns['track'] = (run, work) => runs.track(run, work);
  const runDeps = () => runs.runDeps();
  const subscribe = (runId: string, listener: (event: RunEvent) => void) =>
    runs.events.subscribe({ runId }, listener);
  const approvals = new ApprovalDesk({
    store,
    registry,
    settings,
    now,
    newId: randomUUID,
    runDeps,
    specFor: (run, signal) => runs.specFor(run, signal),
    track,
    publish: (changed) => approvalsBus.publish(changed),
    undos: {
      isUndo: (approval) => store.undoLedger.isUndo(approval.actionId),
      approve: (approval) => audit.approveUndo(approval),
      end: (approval, message) => audit.endUndo(approval, message),
    },
  });
  const data = new DataDesk({
    store,
    now,
    stopRunsIn: (threadId) => runs.active.stopIn(threadId),
    hasRunsIn: (threadId) => runs.active.hasIn(threadId),
    approvalsChanged: () => approvalsBus.publish(null),
    countOffThread: () => deps.walKeeper.counts(),
  });
  const clientCalls = new ClientCalls({
    store,
    registry,
    start: (request, model) => runs.launcher.launch(request, undefined, model).started,
    subscribe,
    abandon: ({ runId, threadId }) => {
      runs.cancel(runId);
      approvals.rejectWaitingIn(threadId, 'The MCP client that asked for this stopped waiting.');
    },
  });
  const audit = new AuditDesk({
    store,
    registry,
    settings: () => settings.get(),
    now,
    newId: newRowId,
    logError: deps.logError,
    emit,
    approvalLifetimeMs: () => settings.get().approvalExpiryMinutes * 60_000,
    publishApproval: (changed) => approvalsBus.publish(changed),
  });
  const sideEffects = new SideEffectsSwitch({
    store,
    settings,
    now,
    onResumed: () => runs.resumeUnfinished(),
  });
  const agents = new AgentsDesk({
    store,
    registry,
    catalog: deps.agentCatalog,
    maxDepth: deps.maxAgentDepth,
    now,
    newId: newRowId,
    defaultModel: () => settings.get().model,
    runDeps,
    baseSpec: (run, signal) => runs.chatSpec(run, signal),
    baseInstruction: (prompt) => runs.instructions.for(prompt, []),
    track,
    isActive: (runId) => runs.active.has(runId),
    checkRoomInLine: () => runs.active.checkRoomInLine(),
    cancel: (runId, why) => {
      if (runs.cancel(runId)) return true;
      // Closing stops every run, parents too: a child's approval then stays, for the run to resume at next start
      // (and the database is closed by then).
      if (runs.isClosed()) return false;
      // A child paused for approval is not working, so there is nothing to stop: what it waits for is
      // rejected here, or the person could still approve it after stopping the run that started it.
      const run = store.runs.get(runId);
      if (run?.status !== 'awaiting_confirmation') return false;
      approvals.endPaused(
        runId,
        run.threadId,
        why === 'out_of_time' ? ENDED_BY_DEPUTY.outOfTime : ENDED_BY_DEPUTY.stoppedWithParent,
      );
      return true;
    },
    subscribe,
    emit,
  });
  agents.refreshTools();
  const plans = new PlanDesk({
    store,
    now,
    runDeps,
    approvals,
    cancelRun: (runId) => runs.cancel(runId),
    continueInThread: (threadId, answer, planId) =>
      runs.launcher.launch({ prompt: answer, threadId }, undefined, undefined, planId).started,
    checkRoomInLine: () => runs.active.checkRoomInLine(),
    logError: deps.logError,
  });
  return { approvals, data, clientCalls, audit, sideEffects, agents, plans };
}
