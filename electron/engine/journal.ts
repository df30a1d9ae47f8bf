import { isoTime } from '../../shared/iso-time';
import type { RuntimeEvent } from '../store/journal-codes';
import type { RunLoopDeps, RunSpec } from './run-deps';
import { openCalls, toStoredState, type CallPart, type RunState } from './run-state';

export type RuntimeEventType = RuntimeEvent['type'];

/**
 * Appends one runtime event (Keep-Up §5.6: turn_start, turn_end, tool_call_start, tool_call_end, recovery,
 * completion, error, plus routing, retry, compression and resume) to the run's append-only log. Called inside
 * the transaction of the change it records, so the log never says more or less than what happened.
 */
export function logRuntime(
  deps: RunLoopDeps,
  spec: RunSpec,
  type: RuntimeEventType,
  turn: number,
  payload: Record<string, unknown> = {},
  toolCallId?: string,
  at: Date = deps.now(),
): void {
  deps.store.events.appendRuntime({
    type,
    runId: spec.runId,
    threadId: spec.threadId,
    agentId: spec.agentId,
    turn,
    timestamp: isoTime(at),
    ...(toolCallId !== undefined && { toolCallId }),
    payload,
  });
}

/** A call of a turn that threw (a bug, a write the disk refused), and what it threw. */
export interface ThrownCall {
  error: unknown;
  call: CallPart;
}

/**
 * Keeps a call that threw in a run that ends otherwise (the person stopped it meanwhile): the runtime log names
 * the call, and Deputy's log keeps its error, as it keeps the error of a run that ended for one. Closing stops runs
 * too, but the store is closed by then: this throws before the log line, and the run goes on at the next start.
 */
export function logThrownCall(deps: RunLoopDeps, spec: RunSpec, state: RunState, thrown: ThrownCall): void {
  const { call } = thrown;
  const actionId = deps.store.actions.byCall(spec.runId, call.callId)?.id;
  deps.store.transaction(() =>
    logRuntime(deps, spec, 'error', state.step, { tool: call.name, actionId, code: 'internal' }, call.callId),
  );
  deps.logError(`${call.name} of run ${spec.runId} failed unexpectedly`, thrown.error);
}

/** Where a run's state goes after every tool result and turn boundary; a no-op sink turns durability off. */
export interface CheckpointSink {
  save(spec: RunSpec, state: RunState): void;
}

/** Checkpoints into the store's `checkpoints` table (deltas with periodic snapshots). */
export function storeCheckpoints(deps: Pick<RunLoopDeps, 'store' | 'newId' | 'now'>): CheckpointSink {
  return {
    save(spec, state) {
      // Written once per step, with the step's commit: the state then is what the ledger says at that commit.
      deps.store.writes.atCommit(`checkpoint:${spec.runId}`, () => saveNow(spec, state));
    },
  };
  function saveNow(spec: RunSpec, state: RunState): void {
    deps.store.checkpoints.save({
      id: deps.newId(),
      runId: spec.runId,
      threadId: spec.threadId,
      timestamp: isoTime(deps.now()),
      state: toStoredState(state) as unknown as Record<string, unknown>,
      pending: openCalls(state).map(({ callId, name }) => ({ callId, name })),
      completed: state.turnResults.map(({ callId, name }) => ({ callId, name })),
      usageTokens: state.usage.inputTokens + state.usage.outputTokens,
      usageCost: null,
    });
  }
}
