import { randomUUID } from 'node:crypto';
import {
  DeputyError,
  LIMITS,
  normalizeRunRequest,
  RunEvent,
  type ActionRecord,
  type Approval,
  type CommandName,
  type Memory,
  type CommandOutput,
  type CommandParsedInput,
  type ContractHost,
  type RunRequest,
  type RunResponse,
  type RunStarted,
  type StreamEvent,
  type StreamName,
  type StreamParsedInput,
  type ThreadDetail,
} from '../../shared/contract';
import type { ConnectionsService } from '../connections/connections-service';
import type { RunLoopDeps } from '../engine/run-deps';
import { failRun } from '../engine/run-endings';
import { driveRun } from '../engine/run-loop';
import { initialState } from '../engine/run-state';
import { buildSystemInstruction } from '../engine/system-instruction';
import type { ModelClient } from '../llm/model-client';
import type { Store } from '../store/store';
import { redactWithJson } from '../vault/redactor';
import type { Vault } from '../vault/vault';
import type { ToolDescription, ToolRegistry } from '../tools/registry';
import { ApprovalDesk } from './approval-desk';
import { ApprovalsBus } from './approvals-bus';
import { decideCall, modelBudgetExceeded } from './policy-context';
import { buildRunMessages, threadTitle } from './run-history';
import { RunEventBus } from './run-event-bus';
import type { SettingsService } from './settings';

export interface HostDeps {
  store: Store;
  registry: ToolRegistry;
  settings: SettingsService;
  connections: ConnectionsService;
  vault: Vault;
  /** Resolved per run, so a key or model configured later takes effect on the next run. */
  modelClient: () => ModelClient | null;
  now: () => Date;
  logError: (message: string, error: unknown) => void;
}

type Handlers = {
  [C in CommandName]: (input: CommandParsedInput<C>) => Promise<CommandOutput<C>> | CommandOutput<C>;
};
type StreamHandlers = {
  [S in StreamName]: (input: StreamParsedInput<S>, listener: (event: StreamEvent<S>) => void) => () => void;
};

interface ActiveRun {
  controller: AbortController;
  done: Promise<RunResponse>;
}

/** How often pending approvals are checked for expiry while the host runs. */
const EXPIRY_SWEEP_MS = 10_000;
/** How many memories go into the [ABOUT THE USER] block. */
const RELEVANT_MEMORIES = 5;

/** The one object that implements the contract; both transports (IPC, HTTP/WebSocket) call into it. */
export class Host implements ContractHost {
  readonly events: RunEventBus;
  readonly approvals: ApprovalDesk;
  private readonly approvalsBus: ApprovalsBus;
  private readonly active = new Map<string, ActiveRun>();
  private readonly handlers: Handlers;
  private readonly streamHandlers: StreamHandlers;
  private readonly expiryTimer: NodeJS.Timeout;
  private isClosed = false;

  /** Where secrets live (the headless API token, the connectors' credentials). */
  get vault(): Vault {
    return this.deps.vault;
  }

  constructor(private readonly deps: HostDeps) {
    this.events = new RunEventBus((runId) => this.storedEvents(runId));
    this.approvalsBus = new ApprovalsBus(() => this.approvals.pending());
    this.approvals = new ApprovalDesk({
      store: deps.store,
      registry: deps.registry,
      settings: deps.settings,
      now: deps.now,
      newId: randomUUID,
      runDeps: () => this.runDeps(),
      track: (runId, work) => this.track(runId, work),
      publish: (changed) => this.approvalsBus.publish(changed),
    });
    this.handlers = {
      'run.start': (input) => this.startRun(input),
      'run.cancel': (input) => ({ cancelled: this.cancelRun(input.runId) }),
      'threads.list': (input) => deps.store.threads.list(input.limit ?? LIMITS.threadListPage, input.before),
      'thread.get': (input) => this.getThread(input.threadId),
      'settings.get': () => deps.settings.get(),
      'settings.set': (input) => deps.settings.set(input),
      'approval.list': (input) => ({ approvals: this.approvals.list(input.status, input.limit) }),
      'approval.decide': (input) => this.approvals.decide(input),
      'approval.edit': (input) => this.approvals.edit(input),
      'connections.list': () => ({ connections: deps.connections.list() }),
      'connections.connect': (input) => deps.connections.connect(input),
      'connections.disconnect': async (input) => ({ status: await deps.connections.disconnect(input.name) }),
      'memory.list': (input) =>
        input.query
          ? {
              memories: deps.store.memories.search(input.query, input.limit).map(memoryView),
              nextCursor: null,
            }
          : deps.store.memories.page(input.limit, input.cursor),
      'memory.update': (input) => {
        const memory = deps.store.memories.update(input.id, input.text, deps.now().toISOString());
        if (!memory) throw new DeputyError('not_found', `There is no memory with the id "${input.id}".`);
        return { memory };
      },
      'memory.delete': (input) => {
        if (!deps.store.memories.delete(input.id)) {
          throw new DeputyError('not_found', `There is no memory with the id "${input.id}".`);
        }
        return { deleted: input.id };
      },
    };
    this.streamHandlers = {
      'run.events': (input, listener) => this.events.subscribe(input, listener),
      'approvals.changed': (_input, listener) => this.approvalsBus.subscribe(listener),
      'connections.changed': (_input, listener) =>
        deps.connections.subscribe((connections) => listener({ connections })),
    };
    this.expiryTimer = setInterval(() => this.sweepExpiredApprovals(), EXPIRY_SWEEP_MS);
    this.expiryTimer.unref();
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
    return this.launch(request).started;
  }

  /** Starts a run and waits for its ending (the non-streaming HTTP route). */
  async runToEnd(request: RunRequest, onEvent?: (event: RunEvent) => void): Promise<RunResponse> {
    const { done, unsubscribe } = this.launch(request, onEvent);
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

  cancelRun(runId: string): boolean {
    const run = this.active.get(runId);
    if (!run) return false;
    run.controller.abort();
    return true;
  }

  sweepExpiredApprovals(): void {
    try {
      this.approvals.expireDue();
    } catch (error) {
      this.deps.logError('could not expire approvals', error);
    }
  }

  /** Stops every active run and waits for each to record its ending. */
  async close(): Promise<void> {
    this.isClosed = true;
    clearInterval(this.expiryTimer);
    this.deps.connections.close();
    const pending = [...this.active.values()];
    for (const run of pending) run.controller.abort();
    await Promise.allSettled(pending.map((run) => run.done));
    this.deps.store.close();
  }

  /** Memory helps a run but never blocks one: a failed read is logged and the run goes on without it. */
  private relevantMemories(prompt: string): string[] {
    try {
      return this.deps.store.memories.search(prompt, RELEVANT_MEMORIES).map((memory) => memory.text);
    } catch (error) {
      this.deps.logError('reading memories for a run failed', error);
      return [];
    }
  }

  private runDeps(): RunLoopDeps {
    const { store, registry, settings, now, logError } = this.deps;
    return {
      store,
      registry,
      model: this.deps.modelClient(),
      emit: (event) => this.emit(event),
      now,
      newId: randomUUID,
      logError,
      decide: (call) => decideCall(call, settings.get(), store, now()),
      checkModelBudget: () =>
        modelBudgetExceeded(settings.get(), store, now())
          ? {
              code: 'rate_limited',
              message:
                'Rate limit reached: the model-token budget for this hour is used up. Try again later or raise the limit in Settings.',
            }
          : null,
      approvalLifetimeMs: () => settings.get().approvalExpiryMinutes * 60_000,
      onApprovalsChanged: (changed: Approval | null) => this.approvalsBus.publish(changed),
    };
  }

  /** Registers a run's work as active (cancellable, awaited on close) and records a bug as a failed run. */
  private track(runId: string, work: (signal: AbortSignal) => Promise<RunResponse>): Promise<RunResponse> {
    if (this.active.has(runId)) throw new DeputyError('conflict', 'This run is already going.');
    const controller = new AbortController();
    const done = work(controller.signal)
      .catch((error: unknown) => this.failUnexpectedly(runId, error))
      .finally(() => this.active.delete(runId));
    this.active.set(runId, { controller, done });
    return done;
  }

  private launch(
    raw: RunRequest,
    onEvent?: (event: RunEvent) => void,
  ): { started: RunStarted; done: Promise<RunResponse>; unsubscribe: () => void } {
    if (this.isClosed) throw new DeputyError('conflict', 'Deputy is shutting down.');
    const request = normalizeRunRequest(raw);
    const { store, settings } = this.deps;
    const runId = randomUUID();
    let threadId = request.threadId;
    if (threadId && !store.threads.get(threadId)) {
      throw new DeputyError('not_found', `There is no conversation with the id "${threadId}".`);
    }
    // A new message answers whatever was still waiting for approval in this thread: it is rejected, not left hanging.
    const continued = threadId ? this.approvals.supersede(threadId) : null;
    const earlier = threadId ? store.threads.recentMessages(threadId, LIMITS.conversationTurns) : [];
    const config = settings.get();
    const now = this.deps.now().toISOString();

    store.transaction(() => {
      if (!threadId) {
        threadId = randomUUID();
        store.threads.create(threadId, threadTitle(request.prompt), now);
      }
      store.runs.create({ id: runId, threadId, model: config.model, prompt: request.prompt }, now);
      store.threads.addMessage({
        id: randomUUID(),
        threadId,
        runId,
        role: 'user',
        text: request.prompt,
        createdAt: now,
      });
      store.threads.touch(threadId, now);
    });
    if (!threadId) throw new Error('thread id missing after creating the run');
    const ids = { runId, threadId };
    const unsubscribe = onEvent ? this.events.subscribe({ runId }, onEvent) : () => {};
    this.emit({ type: 'status', ...ids, status: 'queued' });

    const systemInstruction = buildSystemInstruction({
      now: this.deps.now(),
      profile: {
        name: config.userName,
        email: config.userEmail,
        timezone: config.timezone,
        preferences: config.preferences,
      },
      memories: this.relevantMemories(request.prompt),
      attachedContext: request.attachedContext ?? [],
    });
    const messages = buildRunMessages(request.prompt, request.conversation, earlier, continued);
    const done = this.track(runId, (signal) =>
      driveRun(
        this.runDeps(),
        { ...ids, model: config.model, maxSteps: config.maxLoopSteps, signal },
        initialState(systemInstruction, messages),
      ),
    );
    return { started: ids, done, unsubscribe };
  }

  private emit(unsafe: RunEvent): void {
    // Subscribers see exactly what the log keeps: secrets are taken out once, before either.
    const { value: event, json } = redactWithJson(unsafe);
    const now = this.deps.now().toISOString();
    if (event.type === 'status') this.deps.store.runs.setStatus(event.runId, event.status, now);
    if (event.type !== 'delta') this.deps.store.events.append(event, now, json);
    this.events.publish(event);
  }

  /** A bug in the loop must still leave the run in a terminal state with a stored error. */
  private failUnexpectedly(runId: string, error: unknown): RunResponse {
    this.deps.logError(`run ${runId} failed unexpectedly`, error);
    const run = this.deps.store.runs.get(runId);
    const spec = {
      runId,
      threadId: run?.threadId ?? '',
      model: run?.model ?? '',
      maxSteps: 0,
      signal: new AbortController().signal,
    };
    const failure = {
      code: 'internal' as const,
      message: 'Deputy hit an internal error during this run. The details are in the log.',
    };
    try {
      return failRun(this.runDeps(), spec, initialState('', []), failure);
    } catch (storeError) {
      this.deps.logError(`could not record the failure of run ${runId}`, storeError);
      return {
        ok: false,
        ...spec,
        actionId: runId,
        status: 'failed',
        summary: failure.message,
        mode: 'assistant_text',
      };
    }
  }

  private getThread(threadId: string): ThreadDetail {
    const { store } = this.deps;
    const thread = store.threads.get(threadId);
    if (!thread) throw new DeputyError('not_found', `There is no conversation with the id "${threadId}".`);
    return {
      thread,
      messages: store.threads.messages(threadId),
      actions: store.actions.byThread(threadId),
      runs: store.runs.byThread(threadId),
    };
  }

  private storedEvents(runId: string): RunEvent[] {
    return this.deps.store.events.byRun(runId).flatMap((payload) => {
      const parsed = RunEvent.safeParse(payload);
      return parsed.success ? [parsed.data] : [];
    });
  }
}

const memoryView = ({ id, text, createdAt, updatedAt }: Memory): Memory => ({
  id,
  text,
  createdAt,
  updatedAt,
});
