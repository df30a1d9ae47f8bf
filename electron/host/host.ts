import { isoTime } from '../../shared/iso-time';
import { randomUUID } from 'node:crypto';
import {
  DeputyError,
  RunEvent,
  type ActionRecord,
  type AgentRunInput,
  type Approval,
  type CommandName,
  type CommandOutput,
  type CommandParsedInput,
  type ContractHost,
  type ErrorBody,
  type RunRecord,
  type RunRequest,
  type RunResponse,
  type RunStarted,
  type StreamEvent,
  type StreamName,
  type StreamParsedInput,
} from '../../shared/contract';
import type { AgentCatalog } from '../agents/catalog';
import type { ConnectionsService } from '../connections/connections-service';
import type { ContextService } from '../context/context-service';
import { storeCheckpoints } from '../engine/journal';
import type { RunLoopDeps, RunSpec } from '../engine/run-deps';
import type { RunFailure } from '../engine/model-failure';
import { failRun } from '../engine/run-endings';
import { initialState, parseRunState, type RunState } from '../engine/run-state';
import type { ModelClient } from '../llm/model-client';
import type { McpServers } from '../mcp/mcp-servers';
import { newRowId } from '../store/row-ids';
import { DEFAULT_AGENT_ID } from '../store/runs-repo';
import type { Store } from '../store/store';
import type { WalKeeper } from '../store/wal-keeper-client';
import type { Vault } from '../vault/vault';
import type { ToolDescription, ToolRegistry } from '../tools/registry';
import { ActiveRuns } from './active-runs';
import { redactValue } from '../vault/redactor';
import { AgentsDesk } from './agents-desk';
import { agentHandlers } from './agent-handlers';
import { ApprovalDesk } from './approval-desk';
import { PlanDesk } from './plan-desk';
import { ApprovalsBus } from './approvals-bus';
import { auditChannels } from './channels/audit-channels';
import { mcpChannels } from './channels/mcp-channels';
import { memoryChannels } from './channels/memory-channels';
import { planChannels } from './channels/plan-channels';
import { settingsChannels } from './channels/settings-channels';
import { taskChannels } from './channels/task-channels';
import { threadChannels } from './channels/thread-channels';
import { RunInstructions } from './run-instructions';
import { RunLauncher } from './run-launcher';
import type { ModelsDesk } from './models-desk';
import { resumeRun } from './run-resume';
import { ClientCalls } from './client-calls';
import { withDirectCalls } from './direct-call-model';
import { AuditDesk } from './audit-desk';
import { SideEffectsSwitch } from './side-effects-switch';
import { DataDesk } from './data-desk';
import { decideCall, modelBudgetRefusal } from './policy-context';
import { RunEventBus } from './run-event-bus';
import { endingEvents } from './refusals';
import { plainAnswer } from './run-answer';
import type { SettingsService } from './settings';

export interface HostDeps {
  store: Store;
  /** Checkpoints the store's write-ahead log on a worker thread. */
  walKeeper: WalKeeper;
  /** The context index: the knowledge block of each run and who counts as known to the policy. */
  context: ContextService;
  registry: ToolRegistry;
  settings: SettingsService;
  connections: ConnectionsService;
  vault: Vault;
  /** The person's MCP servers, whose tools are in the registry as `server__tool`. */
  mcp: McpServers;
  /** Agent definitions: the built-ins and the person's own. */
  agentCatalog: AgentCatalog;
  /** How deep agents may delegate (1..3). */
  maxAgentDepth: number;
  /** Resolved per run, so a key or model configured later takes effect on the next run. */
  modelClient: () => ModelClient | null;
  now: () => Date;
  logError: (message: string, error: unknown) => void;
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  random: () => number;
  /** The models the Gemini key can use (Settings' model picker); without one, no list is known. */
  models?: ModelsDesk;
}

type Handlers = {
  [C in CommandName]: (input: CommandParsedInput<C>) => Promise<CommandOutput<C>> | CommandOutput<C>;
};
type StreamHandlers = {
  [S in StreamName]: (input: StreamParsedInput<S>, listener: (event: StreamEvent<S>) => void) => () => void;
};

/** How often pending approvals are checked for expiry while the host runs. */
const EXPIRY_SWEEP_MS = 10_000;
/** How often the audit trail's full-text index takes in a batch of new entries (a search catches up first). */
const AUDIT_INDEX_MS = 1_000;
/** Turns kept before the limit for the final-warning turn (Keep-Up §5.2). */
export const GRACE_TURNS = 2;
/** Chat runs are Deputy's own: the agent id a run gets when no agent definition started it. */
export const CHAT_AGENT_ID = DEFAULT_AGENT_ID;

/** The one object that implements the contract; both transports (IPC, HTTP/WebSocket) call into it. */
export class Host implements ContractHost {
  readonly events: RunEventBus;
  readonly approvals: ApprovalDesk;
  readonly data: DataDesk;
  /** Deputy's tools for other MCP clients, each call under the policy, the approvals and the ledger. */
  readonly clientCalls: ClientCalls;
  readonly audit: AuditDesk;
  /** "Pause all side effects": the run-time kill switch the tray, the banner and the HTTP API flip. */
  readonly sideEffects: SideEffectsSwitch;
  readonly agents: AgentsDesk;
  readonly plans: PlanDesk;
  private readonly approvalsBus: ApprovalsBus;
  private readonly instructions: RunInstructions;
  private readonly launcher: RunLauncher;
  private readonly active: ActiveRuns;
  private readonly handlers: Handlers;
  private readonly streamHandlers: StreamHandlers;
  private readonly expiryTimer: NodeJS.Timeout;
  private readonly stopAuditIndex: () => void;
  private isClosed = false;

  /** Where secrets live (the headless API token, the connectors' credentials). */
  get vault(): Vault {
    return this.deps.vault;
  }

  /** The context index: the Data screen's size and clear, and a refresh on demand. */
  get context(): ContextService {
    return this.deps.context;
  }

  constructor(private readonly deps: HostDeps) {
    this.instructions = new RunInstructions(deps);
    this.launcher = new RunLauncher({
      store: deps.store,
      settings: deps.settings,
      now: deps.now,
      instructions: this.instructions,
      isClosed: () => this.isClosed,
      isDeleting: (threadId) => this.data.isDeleting(threadId),
      refusedRequest: (error) => this.refusedRequest(error),
      supersede: (threadId) => this.approvals.supersede(threadId),
      withoutChildMessages: (messages) => this.agents.withoutChildMessages(messages),
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
        if (this.isClosed) work();
        else deps.store.transaction(work);
      },
      onQueued: (run, queuePosition) => {
        // Closing empties the line after the database is closed: there is no one left to tell.
        if (!this.isClosed)
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
    this.events = new RunEventBus((runId) => this.storedEvents(runId));
    this.approvalsBus = new ApprovalsBus(() => this.approvals.pending());
    this.approvals = new ApprovalDesk({
      store: deps.store,
      registry: deps.registry,
      settings: deps.settings,
      now: deps.now,
      newId: randomUUID,
      runDeps: () => this.runDeps(),
      specFor: (run, signal) => this.specFor(run, signal),
      track: (run, work) => this.track(run, work),
      publish: (changed) => this.approvalsBus.publish(changed),
      undos: {
        isUndo: (approval) => deps.store.undoLedger.isUndo(approval.actionId),
        approve: (approval) => this.audit.approveUndo(approval),
        end: (approval, message) => this.audit.endUndo(approval, message),
      },
    });
    this.data = new DataDesk({
      store: deps.store,
      now: deps.now,
      stopRunsIn: (threadId) => this.active.stopIn(threadId),
      hasRunsIn: (threadId) => this.active.hasIn(threadId),
      approvalsChanged: () => this.approvalsBus.publish(null),
      countOffThread: () => deps.walKeeper.counts(),
    });
    this.clientCalls = new ClientCalls({
      store: deps.store,
      registry: deps.registry,
      start: (request, model) => this.launcher.launch(request, undefined, model).started,
      subscribe: (runId, listener) => this.events.subscribe({ runId }, listener),
      abandon: ({ runId, threadId }) => {
        this.active.cancel(runId);
        this.approvals.rejectWaitingIn(threadId, 'The MCP client that asked for this stopped waiting.');
      },
    });
    this.audit = new AuditDesk({
      store: deps.store,
      registry: deps.registry,
      settings: () => deps.settings.get(),
      now: deps.now,
      newId: newRowId,
      logError: deps.logError,
      emit: (event) => this.emit(event),
      approvalLifetimeMs: () => deps.settings.get().approvalExpiryMinutes * 60_000,
      publishApproval: (changed) => this.approvalsBus.publish(changed),
    });
    this.sideEffects = new SideEffectsSwitch({
      store: deps.store,
      settings: deps.settings,
      now: deps.now,
      onResumed: () => this.resumeUnfinished(),
    });
    this.agents = new AgentsDesk({
      store: deps.store,
      registry: deps.registry,
      catalog: deps.agentCatalog,
      maxDepth: deps.maxAgentDepth,
      now: deps.now,
      newId: newRowId,
      defaultModel: () => deps.settings.get().model,
      runDeps: () => this.runDeps(),
      baseSpec: (run, signal) => this.chatSpec(run, signal),
      baseInstruction: (prompt) => this.instructions.for(prompt, []),
      track: (run, work) => this.track(run, work),
      isActive: (runId) => this.active.has(runId),
      cancel: (runId) => this.active.cancel(runId),
      subscribe: (runId, listener) => this.events.subscribe({ runId }, listener),
      emit: (event) => this.emit(event),
    });
    this.agents.refreshTools();
    this.plans = new PlanDesk({
      store: deps.store,
      now: deps.now,
      runDeps: () => this.runDeps(),
      approvals: this.approvals,
      cancelRun: (runId) => this.active.cancel(runId),
      continueInThread: (threadId, answer, planId) =>
        this.launcher.launch({ prompt: answer, threadId }, undefined, undefined, planId).started,
      logError: deps.logError,
    });
    this.handlers = {
      ...agentHandlers(this.agents, deps.agentCatalog, deps.registry, deps.store),
      'run.start': (input) => this.startRun(input),
      'run.cancel': (input) => ({ cancelled: this.cancelRun(input.runId) }),
      ...threadChannels(deps.store, this.data),
      'data.stats': () => this.data.stats(),
      'data.compact': () => this.data.compact(),
      'context.stats': () => deps.context.stats(),
      'context.clear': () => {
        deps.context.clear();
        return deps.context.stats();
      },
      ...settingsChannels({
        store: deps.store,
        settings: deps.settings,
        now: deps.now,
        models: deps.models,
        logError: deps.logError,
        admitWaiting: () => this.active.admitWaiting(),
        recentMailChanged: () => deps.context.recentMailChanged(),
      }),
      'sideEffects.get': () => this.sideEffects.state(),
      'sideEffects.set': (input) => this.sideEffects.set(input.isPaused),
      'approval.list': (input) => ({ approvals: this.approvals.list(input.status, input.limit) }),
      'approval.decide': (input) => this.approvals.decide(input),
      'approval.edit': (input) => this.approvals.edit(input),
      'connections.list': () => ({ connections: deps.connections.list() }),
      'connections.connect': (input) => deps.connections.connect(input),
      'connections.disconnect': async (input) => ({ status: await deps.connections.disconnect(input.name) }),
      ...taskChannels({
        store: deps.store,
        now: deps.now,
        start: (request, model) => this.launcher.launch(request, undefined, model, undefined, true).started,
        subscribe: (runId, listener) => this.events.subscribe({ runId }, listener),
        check: (tool, args) => deps.registry.check(tool, args),
      }),
      ...memoryChannels(deps.store, deps.now),
      ...mcpChannels(deps.mcp),
      ...auditChannels(this.audit),
      ...planChannels(this.plans),
    };
    this.streamHandlers = {
      'run.events': (input, listener) => this.events.subscribe(input, listener),
      'approvals.changed': (_input, listener) => this.approvalsBus.subscribe(listener),
      'connections.changed': (_input, listener) =>
        deps.connections.subscribe((connections) => listener({ connections })),
      'sideEffects.changed': (_input, listener) => this.sideEffects.subscribe(listener),
    };
    this.expiryTimer = setInterval(() => this.sweepExpiredApprovals(), EXPIRY_SWEEP_MS);
    this.expiryTimer.unref();
    this.stopAuditIndex = deps.store.auditSearch.keepUp(AUDIT_INDEX_MS, (error) =>
      deps.logError('could not index audit entries for search', error),
    );
  }

  async invoke<C extends CommandName>(channel: C, input: CommandParsedInput<C>): Promise<CommandOutput<C>> {
    const handler = this.handlers[channel] as (input: CommandParsedInput<C>) => Promise<CommandOutput<C>>;
    return handler(input);
  }

  subscribe<S extends StreamName>(
    channel: S,
    input: StreamParsedInput<S>,
    listener: (event: StreamEvent<S>) => void,
  ): () => void {
    const handler = this.streamHandlers[channel] as StreamHandlers[S];
    return handler(input, listener);
  }

  /** Starts a run and answers at once; progress arrives on `run.events`. */
  startRun(request: RunRequest): RunStarted {
    return this.launcher.launch(request).started;
  }

  /** Starts a run and waits for its ending (the non-streaming HTTP route). */
  async runToEnd(request: RunRequest, onEvent?: (event: RunEvent) => void): Promise<RunResponse> {
    const { done, unsubscribe } = this.launcher.launch(request, onEvent);
    try {
      return await done;
    } finally {
      unsubscribe();
    }
  }

  /** Every tool the assistant has, as it declares itself (the HTTP API's `/api/tools`). */
  toolCatalog(): ToolDescription[] {
    return this.deps.registry.catalog();
  }

  /** One ledger entry and its approval, found by either id (the HTTP API's `/api/actions/:id`). */
  actionDetail(id: string): { action: ActionRecord | null; approval: Approval | null } {
    const stored = this.deps.store.approvals.get(id);
    const action = this.deps.store.actions.get(stored?.actionId ?? id);
    if (!stored && !action)
      throw new DeputyError('not_found', `There is no action or approval with the id "${id}".`);
    return { action, approval: stored ? this.approvals.view(stored) : null };
  }

  /**
   * A request for a run refused before any run was made (input that does not parse, a conversation that does
   * not exist): one row of spec 002's DecisionLog, REFUSE with its reason. Nothing of what was asked is kept:
   * there is no conversation whose deletion would take it away.
   */
  refusedRequest(error: ErrorBody): void {
    if (this.isClosed) return;
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

  cancelRun(runId: string): boolean {
    return this.active.cancel(runId);
  }

  sweepExpiredApprovals(): void {
    try {
      this.approvals.expireDue();
    } catch (error) {
      this.deps.logError('could not expire approvals', error);
    }
  }

  /**
   * Closing is not cancelling: the database is closed first, so nothing more is written, then what was still
   * running is stopped. Every run stays as its last checkpoint says and goes on at the next start (a call that
   * was in flight is looked for then, like after a crash).
   */
  async close(): Promise<void> {
    this.isClosed = true;
    clearInterval(this.expiryTimer);
    this.stopAuditIndex();
    this.deps.agentCatalog.unwatch();
    this.deps.connections.close();
    const contextClosed = this.deps.context.close();
    // The data folder stays this host's until its workers and servers have stopped too.
    const lock = this.deps.store.takeLock();
    this.deps.store.close();
    try {
      await Promise.all([
        this.active.stopAll(),
        this.deps.mcp.close(),
        contextClosed,
        this.deps.walKeeper.close(),
      ]);
    } finally {
      lock?.release();
    }
  }

  private runDeps(): RunLoopDeps {
    const { store, registry, settings, now, logError } = this.deps;
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
        decideCall(call, facts, settings.get(), store, now(), (address) =>
          this.deps.context.isDealtWith(address),
        ),
      checkModelBudget: () => modelBudgetRefusal(settings.get(), store, now()),
      approvalLifetimeMs: () => settings.get().approvalExpiryMinutes * 60_000,
      onApprovalsChanged: (changed: Approval | null) => this.approvalsBus.publish(changed),
      areSideEffectsPaused: () => this.deps.settings.get().areSideEffectsPaused,
      checkIntent: (analysis, turn) => this.deps.context.unresolvedPerson(analysis, turn.reachesPeople),
    };
  }

  /** Starts an agent and waits for its ending (POST /api/agents/:name/run and its stream). */
  async runAgentToEnd(input: AgentRunInput, onEvent?: (event: RunEvent) => void): Promise<RunResponse> {
    if (this.isClosed) throw new DeputyError('conflict', 'Deputy is shutting down.');
    const { started, done } = this.agents.start(input);
    // The bus replays what the run already emitted to a subscriber of that run: nothing is missed.
    const unsubscribe = onEvent ? this.events.subscribe({ runId: started.runId }, onEvent) : () => {};
    try {
      return await done;
    } finally {
      unsubscribe();
    }
  }

  /** A run's work, behind the cap on runs at once unless it is an agent's child (its parent holds a slot). */
  private track(run: { id: string; threadId: string }, work: (signal: AbortSignal) => Promise<RunResponse>) {
    return this.active.track(run, work, { holdsSlot: !this.agents.isChild(run.id) });
  }

  /** The spec of a run under the settings of this moment: an agent's when an agent runs it. */
  private specFor(run: { id: string; threadId: string; model: string }, signal: AbortSignal): RunSpec {
    return this.agents.specFor(run, signal) ?? this.chatSpec(run, signal);
  }

  /** The spec of a chat run under the settings of this moment. */
  private chatSpec(run: { id: string; threadId: string; model: string }, signal: AbortSignal): RunSpec {
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
    this.audit.reconcileUndos();
  }

  private emit(raw: RunEvent): void {
    const unsafe = raw.type === 'status' && !this.isClosed ? this.agents.withParent(raw) : raw;
    // Subscribers see exactly what the log keeps: secrets are taken out once, before either.
    const event = redactValue(unsafe);
    const now = isoTime(this.deps.now());
    // An agent run's ending closes its lineage row and registers its output, in the ending's own transaction.
    if (event.type === 'result' && !this.isClosed) this.agents.onResult(event.runId, event.result);
    if (event.type === 'status') {
      // One commit for the status and its log row (inside a run's transaction this is a savepoint).
      this.deps.store.transaction(() => {
        this.deps.store.runs.setStatus(event.runId, event.status, now);
        this.deps.store.events.appendRedacted(event, now);
      });
    } else if (event.type !== 'delta') {
      this.deps.store.events.appendRedacted(event, now);
    }
    this.events.publish(event);
  }

  /** A bug in the loop must still leave the run in a terminal state with a stored error. */
  private failUnexpectedly(runId: string, error: unknown): RunResponse {
    if (!this.isClosed) this.deps.logError(`run ${runId} failed unexpectedly`, error);
    return this.endWithoutWork(runId, {
      code: 'internal',
      message: 'Deputy hit an internal error during this run. The details are in the log.',
    });
  }

  /** Records `failure` as the run's ending, keeping what its last checkpoint had reached. */
  private endWithoutWork(runId: string, failure: RunFailure): RunResponse {
    // Stopped by closing: nothing was recorded on purpose, and the run goes on at the next start.
    if (this.isClosed) {
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
