import { randomUUID } from 'node:crypto';
import {
  DeputyError,
  LIMITS,
  normalizeRunRequest,
  type CommandName,
  type CommandOutput,
  type CommandParsedInput,
  type ContractHost,
  RunEvent,
  type RunRequest,
  type RunResponse,
  type RunStarted,
  type StreamEvent,
  type StreamName,
  type StreamParsedInput,
  type ThreadDetail,
} from '../../shared/contract';
import { executeRun } from '../engine/run-loop';
import { buildSystemInstruction } from '../engine/system-instruction';
import type { ModelClient } from '../llm/model-client';
import type { Store } from '../store/store';
import type { ToolRegistry } from '../tools/registry';
import { buildRunMessages, threadTitle } from './run-history';
import { RunEventBus } from './run-event-bus';
import type { SettingsService } from './settings';

export interface HostDeps {
  store: Store;
  registry: ToolRegistry;
  settings: SettingsService;
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

/** The one object that implements the contract; both transports (IPC, HTTP/WebSocket) call into it. */
export class Host implements ContractHost {
  readonly events: RunEventBus;
  private readonly active = new Map<string, ActiveRun>();
  private readonly handlers: Handlers;
  private readonly streamHandlers: StreamHandlers;
  private isClosed = false;

  constructor(private readonly deps: HostDeps) {
    this.events = new RunEventBus((runId) => this.storedEvents(runId));
    this.handlers = {
      'run.start': (input) => this.startRun(input),
      'run.cancel': (input) => ({ cancelled: this.cancelRun(input.runId) }),
      'threads.list': (input) => deps.store.threads.list(input.limit ?? LIMITS.threadListPage, input.before),
      'thread.get': (input) => this.getThread(input.threadId),
      'settings.get': () => deps.settings.get(),
      'settings.set': (input) => deps.settings.set(input),
    };
    this.streamHandlers = {
      'run.events': (input, listener) => this.events.subscribe(input, listener),
    };
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
    const { started, done, unsubscribe } = this.launch(request, onEvent);
    try {
      return await done;
    } finally {
      unsubscribe();
      void started;
    }
  }

  cancelRun(runId: string): boolean {
    const run = this.active.get(runId);
    if (!run) return false;
    run.controller.abort();
    return true;
  }

  get activeRunCount(): number {
    return this.active.size;
  }

  /** Stops every active run and waits for each to record its ending. */
  async close(): Promise<void> {
    this.isClosed = true;
    const pending = [...this.active.values()];
    for (const run of pending) run.controller.abort();
    await Promise.allSettled(pending.map((run) => run.done));
    this.deps.store.close();
  }

  private launch(
    raw: RunRequest,
    onEvent?: (event: RunEvent) => void,
  ): { started: RunStarted; done: Promise<RunResponse>; unsubscribe: () => void } {
    if (this.isClosed) throw new DeputyError('conflict', 'Deputy is shutting down.');
    const request = normalizeRunRequest(raw);
    const { store, settings } = this.deps;
    const config = settings.get();
    const runId = randomUUID();
    const now = this.deps.now().toISOString();
    let threadId = request.threadId;
    if (threadId && !store.threads.get(threadId)) {
      throw new DeputyError('not_found', `There is no conversation with the id "${threadId}".`);
    }
    const earlier = threadId ? store.threads.recentMessages(threadId, LIMITS.conversationTurns) : [];

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

    const controller = new AbortController();
    const done = executeRun(
      {
        store,
        registry: this.deps.registry,
        model: this.deps.modelClient(),
        emit: (event) => this.emit(event),
        now: this.deps.now,
        newId: randomUUID,
        logError: this.deps.logError,
      },
      {
        ...ids,
        model: config.model,
        maxSteps: config.maxLoopSteps,
        systemInstruction: buildSystemInstruction({
          now: this.deps.now(),
          timezone: config.timezone,
          userName: config.userName,
          attachedContext: request.attachedContext ?? [],
        }),
        messages: buildRunMessages(request.prompt, request.conversation, earlier),
        signal: controller.signal,
      },
    )
      .catch((error: unknown) => this.failUnexpectedly(ids, config.model, error))
      .finally(() => this.active.delete(runId));
    this.active.set(runId, { controller, done });
    return { started: ids, done, unsubscribe };
  }

  private emit(event: RunEvent): void {
    if (event.type === 'status')
      this.deps.store.runs.setStatus(event.runId, event.status, this.deps.now().toISOString());
    if (event.type !== 'delta') this.deps.store.events.append(event, this.deps.now().toISOString());
    this.events.publish(event);
  }

  /** A bug in the loop must still leave the run in a terminal state with a stored error. */
  private failUnexpectedly(
    ids: { runId: string; threadId: string },
    model: string,
    error: unknown,
  ): RunResponse {
    this.deps.logError(`run ${ids.runId} failed unexpectedly`, error);
    const message = 'Deputy hit an internal error during this run. The details are in the log.';
    const response: RunResponse = {
      ok: false,
      ...ids,
      actionId: ids.runId,
      status: 'failed',
      summary: message,
      mode: 'assistant_text',
      model,
    };
    try {
      this.deps.store.transaction(() => {
        this.deps.store.runs.end(
          ids.runId,
          {
            status: 'failed',
            mode: 'assistant_text',
            summary: message,
            decision: 'RESPOND_ONLY',
            outcome: 'ERROR:INTERNAL',
            errorCode: 'internal',
            errorMessage: message,
          },
          this.deps.now().toISOString(),
        );
        this.emit({ type: 'error', ...ids, error: message, code: 'internal' });
        this.emit({ type: 'status', ...ids, status: 'failed' });
        this.emit({ type: 'result', ...ids, result: response });
      });
    } catch (storeError) {
      this.deps.logError(`could not record the failure of run ${ids.runId}`, storeError);
    }
    return response;
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
