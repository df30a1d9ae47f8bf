import { isoTime } from '../../shared/iso-time';
import {
  type Approval,
  type ErrorBody,
  type RunEvent,
  type RunRequest,
  type RunResponse,
  type RunStarted,
} from '../../shared/contract';
import { storeCheckpoints } from '../engine/journal';
import type { RunFailure } from '../engine/model-failure';
import type { RunLoopDeps, RunSpec } from '../engine/run-deps';
import { newRowId } from '../store/row-ids';
import { DEFAULT_AGENT_ID } from '../store/runs-repo';
import { redactValue } from '../vault/redactor';
import { ActiveRuns } from './active-runs';
import { withDirectCalls } from './direct-call-model';
import type { Desks } from './host-desks';
import type { HostDeps } from './host-deps';
import { decideCall, modelBudgetRefusal } from './policy-context';
import { RunEventBus } from './run-event-bus';
import { RunInstructions } from './run-instructions';
import { endWithoutWork, storedEvents } from './run-without-loop';
import { RunLauncher, type RunIds } from './run-launcher';
import { resumeRun } from './run-resume';
import { settleEndedRuns } from './ended-runs';

/** Turns kept before the limit for the final-warning turn (Keep-Up §5.2). */
const GRACE_TURNS = 2;
/** Chat runs are Deputy's own: the agent id a run gets when no agent definition started it. */
const CHAT_AGENT_ID = DEFAULT_AGENT_ID;

/** What the runs need from the rest of the host. The desks are made after the runs, so they are asked for when used. */
export interface HostRunsLinks {
  isClosed: () => boolean;
  desks: () => Desks;
  approvalsChanged: (changed: Approval | null) => void;
}

/**
 * The host's runs. It starts them (the launcher) and holds the cap on runs at once (the active line). It gives
 * each run's loop its dependencies and its spec, logs and publishes their events, resumes the unfinished ones at
 * start, and ends a run whose loop could not end it (a bug, a stop before it started, closing).
 */
export class HostRuns {
  readonly events: RunEventBus;
  readonly active: ActiveRuns;
  readonly launcher: RunLauncher;
  readonly instructions: RunInstructions;
  /** Whether the host is closing: the runs it stops then are not stopped by anyone, and resume at the next start. */
  readonly isClosed: () => boolean;

  constructor(
    private readonly deps: HostDeps,
    private readonly links: HostRunsLinks,
  ) {
    this.instructions = new RunInstructions(deps);
    this.isClosed = links.isClosed;
    this.events = new RunEventBus(
      (runId) => storedEvents(deps.store, runId),
      (runId) => deps.store.runs.hasEnded(runId),
    );
    this.launcher = new RunLauncher({
      store: deps.store,
      settings: deps.settings,
      now: deps.now,
      instructions: this.instructions,
      isClosed: links.isClosed,
      isDeleting: (threadId) => links.desks().data.isDeleting(threadId),
      checkRoomInLine: () => this.active.checkRoomInLine(),
      refusedRequest: (error) => this.refusedRequest(error),
      supersede: (threadId) => links.desks().approvals.supersede(threadId),
      withoutChildMessages: (messages) => links.desks().agents.withoutChildMessages(messages),
      runDeps: () => this.runDeps(),
      specFor: (run, signal) => this.specFor(run, signal),
      subscribe: (runId, listener) => this.events.subscribe({ runId }, listener),
      emit: (event) => this.emit(event),
      publish: (event) => this.events.publish(event),
      track: (run, work) => this.track(run, work),
    });
    this.active = new ActiveRuns({
      capacity: () => deps.settings.choices().maxConcurrentRuns,
      onQueued: (run, queuePosition, isFirst) => {
        // Closing empties the line after the database is closed: there is no one left to tell.
        if (links.isClosed()) return;
        const event: RunEvent = {
          type: 'status',
          runId: run.id,
          threadId: run.threadId,
          status: 'queued',
          queuePosition,
        };
        // The log keeps the place a run got when it joined the line. Each move of the line (every run in it
        // moves up at once) is told to whoever listens, not logged: the log would grow with the square of the
        // line's length.
        if (isFirst) this.emit(event);
        else this.events.publish(this.shown(event));
      },
      onLeftQueue: (runId) =>
        this.endWithoutWork(runId, { code: 'cancelled', message: 'Stopped before it started.' }),
      onError: (runId, error) => this.failUnexpectedly(runId, error),
    });
  }

  /** Starts a run and answers at once; progress arrives on its events. */
  start(request: RunRequest): RunStarted {
    return this.launcher.launch(request).started;
  }

  cancel(runId: string): boolean {
    return this.active.cancel(runId);
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
        decideCall(call, facts, settings.choices(), store, now(), (address) => context.isDealtWith(address)),
      checkModelBudget: () => modelBudgetRefusal(settings.choices(), store, now()),
      approvalLifetimeMs: () => settings.choices().approvalExpiryMinutes * 60_000,
      onApprovalsChanged: (changed: Approval | null) => this.links.approvalsChanged(changed),
      areSideEffectsPaused: () => settings.choices().areSideEffectsPaused,
      checkIntent: (analysis, turn) => context.unresolvedPerson(analysis, turn),
    };
  }

  /** A run's work, behind the cap on runs at once unless it is an agent's child (its parent holds a slot). */
  track(run: { id: string; threadId: string }, work: (signal: AbortSignal) => Promise<RunResponse>) {
    return this.active.track(run, work, { holdsSlot: !this.links.desks().agents.isChild(run.id) });
  }

  /** The spec of a run under the settings of this moment: an agent's when an agent runs it. */
  specFor(run: RunIds, signal: AbortSignal): RunSpec {
    return this.links.desks().agents.specFor(run, signal) ?? this.chatSpec(run, signal);
  }

  /** The spec of a chat run under the settings of this moment. */
  chatSpec(run: RunIds, signal: AbortSignal): RunSpec {
    const settings = this.deps.settings.choices();
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

  /** An event as subscribers and the log see it: a child run's status names its parent, and secrets are out. */
  private shown(raw: RunEvent): RunEvent {
    const unsafe =
      raw.type === 'status' && !this.links.isClosed() ? this.links.desks().agents.withParent(raw) : raw;
    return redactValue(unsafe);
  }

  /** Logs an event as its subscribers will see it, then tells them. */
  emit(raw: RunEvent): void {
    const isClosed = this.links.isClosed();
    // Subscribers see exactly what the log keeps: secrets are taken out once, before either.
    const event = this.shown(raw);
    const now = isoTime(this.deps.now());
    const { store } = this.deps;
    // An agent run's ending closes its lineage row and registers its output, in the ending's own transaction.
    if (event.type === 'result' && !isClosed) this.links.desks().agents.onResult(event.runId, event.result);
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

  /** At start: the side effects runs that have ended left `started` are looked for (ended-runs.ts). */
  settleEndedRuns(): Promise<void> {
    const { store, logError } = this.deps;
    return settleEndedRuns({
      store,
      logError,
      runDeps: () => this.runDeps(),
      specFor: (run, signal) => this.specFor(run, signal),
    }).catch((error: unknown) => logError('could not settle the calls ended runs left running', error));
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
    if (this.deps.settings.choices().areSideEffectsPaused) return;
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
            finishEnding: (approval, failure) => this.links.desks().approvals.finishEnding(approval, failure),
          },
          run,
        );
      } catch (error) {
        this.deps.logError(`could not resume run ${run.id}`, error);
      }
    }
    this.links.desks().audit.reconcileUndos();
  }

  /**
   * A request for a run refused before any run was made (input that does not parse, a conversation that does
   * not exist): one row of spec 002's DecisionLog, REFUSE with its reason. Nothing of what was asked is kept:
   * there is no conversation whose deletion would take it away.
   */
  refusedRequest(error: ErrorBody): void {
    if (this.links.isClosed()) return;
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

  private endWithoutWork(runId: string, failure: RunFailure): RunResponse {
    return endWithoutWork(
      {
        store: this.deps.store,
        isClosed: this.links.isClosed,
        logError: this.deps.logError,
        runDeps: () => this.runDeps(),
        specFor: (run, signal) => this.specFor(run, signal),
      },
      runId,
      failure,
    );
  }

  /** A bug in the loop must still leave the run in a terminal state with a stored error. */
  private failUnexpectedly(runId: string, error: unknown): RunResponse {
    if (!this.links.isClosed()) this.deps.logError(`run ${runId} failed unexpectedly`, error);
    return this.endWithoutWork(runId, {
      code: 'internal',
      message: 'Deputy hit an internal error during this run. The details are in the log.',
    });
  }
}
