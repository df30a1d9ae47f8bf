import { isoTime } from '../../shared/iso-time';
import {
  RunEvent,
  type Approval,
  type ErrorBody,
  type RunRecord,
  type RunResponse,
} from '../../shared/contract';
import { storeCheckpoints } from '../engine/journal';
import type { RunFailure } from '../engine/model-failure';
import type { RunLoopDeps, RunSpec } from '../engine/run-deps';
import { failRun } from '../engine/run-endings';
import { initialState, parseRunState, type RunState } from '../engine/run-state';
import { newRowId } from '../store/row-ids';
import { DEFAULT_AGENT_ID } from '../store/runs-repo';
import { redactValue } from '../vault/redactor';
import { ActiveRuns } from './active-runs';
import type { AgentsDesk } from './agents-desk';
import type { ApprovalDesk } from './approval-desk';
import type { AuditDesk } from './audit-desk';
import type { DataDesk } from './data-desk';
import { withDirectCalls } from './direct-call-model';
import type { HostDeps } from './host-deps';
import { decideCall, modelBudgetRefusal } from './policy-context';
import { endingEvents } from './refusals';
import { plainAnswer } from './run-answer';
import { RunEventBus } from './run-event-bus';
import { RunInstructions } from './run-instructions';
import { RunLauncher } from './run-launcher';
import { resumeRun } from './run-resume';

/** Turns kept before the limit for the final-warning turn (Keep-Up §5.2). */
export const GRACE_TURNS = 2;
/** Chat runs are Deputy's own: the agent id a run gets when no agent definition started it. */
export const CHAT_AGENT_ID = DEFAULT_AGENT_ID;

type RunIds = { id: string; threadId: string; model: string };

/** What the runs need from the rest of the host, read when used: the desks are made after the runs. */
export interface RunsAround {
  isClosed: () => boolean;
  agents: () => AgentsDesk;
  approvals: () => ApprovalDesk;
  data: () => DataDesk;
  audit: () => AuditDesk;
  approvalsChanged: (changed: Approval | null) => void;
}

/**
 * The host's runs: how one starts, what its loop is given, the cap on runs at once, its events, and how it
 * ends when its loop cannot end it (a bug, a stop before it started, closing).
 */
export class HostRuns {
  readonly events: RunEventBus;
  readonly active: ActiveRuns;
  readonly launcher: RunLauncher;
  readonly instructions: RunInstructions;

  constructor(
    private readonly deps: HostDeps,
    private readonly around: RunsAround,
  ) {
    this.instructions = new RunInstructions(deps);
    this.events = new RunEventBus((runId) => this.storedEvents(runId));
    this.launcher = new RunLauncher({
      store: deps.store,
      settings: deps.settings,
      now: deps.now,
      instructions: this.instructions,
      isClosed: around.isClosed,
      isDeleting: (threadId) => around.data().isDeleting(threadId),
      refusedRequest: (error) => this.refusedRequest(error),
      supersede: (threadId) => around.approvals().supersede(threadId),
      withoutChildMessages: (messages) => around.agents().withoutChildMessages(messages),
      runDeps: () => this.runDeps(),
      specFor: (run, signal) => this.specFor(run, signal),
      subscribe: (runId, listener) => this.events.subscribe({ runId }, listener),
      emit: (event) => this.emit(event),
      publish: (event) => this.events.publish(event),
      track: (run, work) => this.track(run, work),
    });
    this.active = new ActiveRuns({
      capacity: () => deps.settings.get().maxConcurrentRuns,
      together: (work) => {
        if (around.isClosed()) work();
        else deps.store.transaction(work);
      },
      onQueued: (run, queuePosition) => {
        // Closing empties the line after the database is closed: there is no one left to tell.
        if (!around.isClosed())
          this.emit({
            type: 'status',
            runId: run.id,
            threadId: run.threadId,
            status: 'queued',
            queuePosition,
          });
      },
      onLeftQueue: (runId) =>
        this.endWithoutWork(runId, { code: 'cancelled', message: 'Stopped before it started.' }),
      onError: (runId, error) => this.failUnexpectedly(runId, error),
    });
  }

  /** What a run's loop is given, under the settings of this moment. */
  runDeps(): RunLoopDeps {
    const { store, registry, settings, now, logError, context } = this.deps;
    return {
      store,
      registry,
      model: withDirectCalls(this.deps.modelClient()),
      emit: (event) => this.emit(event),
      checkpoints: storeCheckpoints({ store, newId: newRowId, now }),
      now,
      newId: newRowId,
      sleep: this.deps.sleep,
      random: this.deps.random,
      logError,
      decide: (call, facts) =>
        decideCall(call, facts, settings.get(), store, now(), (address) => context.isDealtWith(address)),
      checkModelBudget: () => modelBudgetRefusal(settings.get(), store, now()),
      approvalLifetimeMs: () => settings.get().approvalExpiryMinutes * 60_000,
      onApprovalsChanged: (changed: Approval | null) => this.around.approvalsChanged(changed),
      areSideEffectsPaused: () => settings.get().areSideEffectsPaused,
      checkIntent: (analysis, turn) => context.unresolvedPerson(analysis, turn.reachesPeople),
    };
  }

  /** A run's work, behind the cap on runs at once unless it is an agent's child (its parent holds a slot). */
  track(run: { id: string; threadId: string }, work: (signal: AbortSignal) => Promise<RunResponse>) {
    return this.active.track(run, work, { holdsSlot: !this.around.agents().isChild(run.id) });
  }

  /** The spec of a run under the settings of this moment: an agent's when an agent runs it. */
  specFor(run: RunIds, signal: AbortSignal): RunSpec {
    return this.around.agents().specFor(run, signal) ?? this.chatSpec(run, signal);
  }

  /** The spec of a chat run under the settings of this moment. */
  chatSpec(run: RunIds, signal: AbortSignal): RunSpec {
    const settings = this.deps.settings.get();
    return {
      runId: run.id,
      threadId: run.threadId,
      agentId: CHAT_AGENT_ID,
      model: run.model,
      maxSteps: settings.maxLoopSteps,
      graceTurns: GRACE_TURNS,
      timeLimitMs: settings.runTimeLimitMinutes * 60_000,
      execution: { policy: settings.executionPolicy, maxParallel: settings.maxParallel },
      routingPolicy: settings.routingPolicy,
      completion: null,
      showThinking: settings.showThinking,
      signal,
    };
  }

  /** Logs an event as its subscribers will see it, then tells them. */
  emit(raw: RunEvent): void {
    const isClosed = this.around.isClosed();
    const unsafe = raw.type === 'status' && !isClosed ? this.around.agents().withParent(raw) : raw;
    // Subscribers see exactly what the log keeps: secrets are taken out once, before either.
    const event = redactValue(unsafe);
    const now = isoTime(this.deps.now());
    const { store } = this.deps;
    // An agent run's ending closes its lineage row and registers its output, in the ending's own transaction.
    if (event.type === 'result' && !isClosed) this.around.agents().onResult(event.runId, event.result);
    if (event.type === 'status') {
      // One commit for the status and its log row (inside a run's transaction this is a savepoint).
      store.transaction(() => {
        store.runs.setStatus(event.runId, event.status, now);
        store.events.appendRedacted(event, now);
      });
    } else if (event.type !== 'delta') {
      store.events.appendRedacted(event, now);
    }
    this.events.publish(event);
  }

  /**
   * On start-up (and on Resume): every run that was not finished goes on from its last checkpoint. A run paused for approval
   * stays paused unless its decision was taken and not yet acted on; one whose state cannot be read is ended
   * with that reason rather than guessed at.
   */
  resumeUnfinished(): void {
    const { store } = this.deps;
    // Paused: a resumed run could carry out a call approved before the pause. The runs wait, and go on
    // when the person resumes (SideEffectsSwitch calls this again).
    if (this.deps.settings.get().areSideEffectsPaused) return;
    let runs;
    try {
      runs = store.runs.unfinished();
    } catch (error) {
      this.deps.logError('could not list unfinished runs', error);
      return;
    }
    for (const run of runs) {
      if (this.active.has(run.id)) continue;
      try {
        resumeRun(
          {
            store,
            now: this.deps.now,
            runDeps: () => this.runDeps(),
            specFor: (unfinished, signal) => this.specFor(unfinished, signal),
            track: (unfinished, work) => this.track(unfinished, work),
            noticeFrom: CHAT_AGENT_ID,
          },
          run,
        );
      } catch (error) {
        this.deps.logError(`could not resume run ${run.id}`, error);
      }
    }
    this.around.audit().reconcileUndos();
  }

  /**
   * A request for a run refused before any run was made (input that does not parse, a conversation that does
   * not exist): one row of spec 002's DecisionLog, REFUSE with its reason. Nothing of what was asked is kept:
   * there is no conversation whose deletion would take it away.
   */
  refusedRequest(error: ErrorBody): void {
    if (this.around.isClosed()) return;
    try {
      this.deps.store.decisions.record(
        {
          runId: null,
          agentId: CHAT_AGENT_ID,
          decision: 'REFUSE',
          outcome: `REFUSAL:${error.code.toUpperCase()}`,
          summary: error.message,
          errorCode: error.code,
        },
        isoTime(this.deps.now()),
      );
    } catch (storeError) {
      this.deps.logError('could not record a refused request', storeError);
    }
  }

  /** A bug in the loop must still leave the run in a terminal state with a stored error. */
  private failUnexpectedly(runId: string, error: unknown): RunResponse {
    if (!this.around.isClosed()) this.deps.logError(`run ${runId} failed unexpectedly`, error);
    return this.endWithoutWork(runId, {
      code: 'internal',
      message: 'Deputy hit an internal error during this run. The details are in the log.',
    });
  }

  /** Records `failure` as the run's ending, keeping what its last checkpoint had reached. */
  private endWithoutWork(runId: string, failure: RunFailure): RunResponse {
    // Stopped by closing: nothing was recorded on purpose, and the run goes on at the next start.
    if (this.around.isClosed()) {
      return plainAnswer(
        runId,
        null,
        'failed',
        'Deputy closed while this was running; it goes on when Deputy starts again.',
      );
    }
    let run: RunRecord | null = null;
    try {
      run = this.deps.store.runs.get(runId);
      // An ending already recorded stands: a late error must not turn a finished run into a failed one.
      if (run && (run.status === 'completed' || run.status === 'failed')) {
        return plainAnswer(runId, run, run.status, run.summary ?? '');
      }
      const spec = this.specFor(
        { id: runId, threadId: run?.threadId ?? '', model: run?.model ?? '' },
        new AbortController().signal,
      );
      let state: RunState | null = null;
      try {
        state = parseRunState(this.deps.store.checkpoints.load(runId)?.state);
      } catch {
        state = null;
      }
      return failRun(this.runDeps(), spec, state ?? initialState('', []), failure);
    } catch (storeError) {
      this.deps.logError(`could not record the ending of run ${runId}`, storeError);
      return plainAnswer(runId, run, 'failed', failure.message);
    }
  }

  private storedEvents(runId: string): RunEvent[] {
    const stored = this.deps.store.events.byRun(runId).flatMap((payload) => {
      const parsed = RunEvent.safeParse(payload);
      return parsed.success ? [parsed.data] : [];
    });
    if (stored.length > 0) return stored;
    // A refused request stores no events: its ending is rebuilt from its run row.
    const run = this.deps.store.runs.get(runId);
    if (run?.status !== 'failed') return [];
    const summary = run.errorMessage ?? run.summary ?? '';
    return endingEvents(plainAnswer(run.id, run, 'failed', summary), run.errorCode);
  }
}
