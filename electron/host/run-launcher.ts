import {
  DeputyError,
  type ErrorBody,
  LIMITS,
  type MessageRecord,
  normalizeRunRequest,
  notFound,
  type RunEvent,
  type RunRequest,
  type RunResponse,
  type RunStarted,
} from '../../shared/contract';
import type { RunFailure } from '../engine/model-failure';
import { planFindings, planNote } from '../engine/plans/plan-note';
import { refreshPlan } from '../engine/plans/plan-progress';
import type { RunLoopDeps, RunSpec } from '../engine/run-deps';
import { driveRun } from '../engine/run-loop';
import { initialState } from '../engine/run-state';
import type { ModelMessage } from '../llm/model-client';
import { newRowId } from '../store/row-ids';
import type { Store } from '../store/store';
import { redactValue } from '../vault/redactor';
import { modelBudgetRefusal } from './policy-context';
import { endingEvents, recordRefusal } from './refusals';
import { buildRunMessages, threadTitle } from './run-history';
import type { RunInstructions } from './run-instructions';
import type { SettingsService } from './settings';

/** What names a run, and the model it runs on. */
export type RunIds = { id: string; threadId: string; model: string };

export interface RunLauncherDeps {
  store: Store;
  settings: SettingsService;
  now: () => Date;
  instructions: RunInstructions;
  isClosed: () => boolean;
  isDeleting: (threadId: string) => boolean;
  /** Throws `too_many` when the line of runs waiting to start is full. */
  checkRoomInLine: () => void;
  /** A request refused before a run exists: its decision row. */
  refusedRequest: (error: ErrorBody) => void;
  /** Rejects what still waits for approval in the thread, and gives back what its model had seen. */
  supersede: (threadId: string) => ModelMessage[] | null;
  withoutChildMessages: (messages: MessageRecord[]) => MessageRecord[];
  runDeps: () => RunLoopDeps;
  specFor: (run: RunIds, signal: AbortSignal) => RunSpec;
  subscribe: (runId: string, listener: (event: RunEvent) => void) => () => void;
  emit: (event: RunEvent) => void;
  publish: (event: RunEvent) => void;
  track: (run: RunIds, work: (signal: AbortSignal) => Promise<RunResponse>) => Promise<RunResponse>;
}

export interface Launched {
  started: RunStarted;
  done: Promise<RunResponse>;
  unsubscribe: () => void;
}

/** Starts chat runs: a request becomes a run, its prompt and its first checkpoint in one commit, then the loop. */
export class RunLauncher {
  constructor(private readonly deps: RunLauncherDeps) {}

  launch(
    raw: RunRequest,
    onEvent?: (event: RunEvent) => void,
    model?: string,
    planId?: string,
    /** Leave what waits for approval in the thread waiting (the Tasks panel's changes), instead of answering it. */
    keepsWaiting = false,
  ): Launched {
    if (this.deps.isClosed()) throw new DeputyError('conflict', 'Deputy is shutting down.');
    // What the person pasted is redacted once, on the way in: the model, the thread, the run row and the
    // checkpoint then all hold the same text, and a token never reaches any of them.
    const request = redactValue(normalizeRunRequest(raw));
    const { store, settings } = this.deps;
    const runId = newRowId();
    const threadId = request.threadId;
    if (threadId && (!store.threads.get(threadId) || this.deps.isDeleting(threadId))) {
      const error = notFound('conversation', threadId);
      this.deps.refusedRequest(error.toBody());
      throw error;
    }
    const config = { ...settings.get(), ...(model && { model }) };
    // Refused before anything is built or stored: a refusal is a small record, and it leaves approvals waiting.
    const refusal = modelBudgetRefusal(config, store, this.deps.now());
    if (refusal) return this.refuse(request, refusal, onEvent);
    try {
      this.deps.checkRoomInLine();
    } catch (error) {
      // Turned away before it became a run, as a request for a conversation that is gone: still a decision.
      if (error instanceof DeputyError) this.deps.refusedRequest(error.toBody());
      throw error;
    }
    // A new message answers whatever was still waiting for approval in this thread: it is rejected, not left hanging.
    const continued = threadId && !keepsWaiting ? this.deps.supersede(threadId) : null;
    const earlier = threadId
      ? this.deps.withoutChildMessages(store.threads.recentMessages(threadId, LIMITS.conversationTurns))
      : [];
    const now = this.deps.now().toISOString();
    // Memories by words now; by meaning too just before the first turn, when semantic search can run.
    const isByMeaning = this.deps.instructions.isByMeaning;
    const systemInstruction = this.deps.instructions.for(request.prompt, request.attachedContext ?? []);
    const messages = buildRunMessages(request.prompt, request.conversation, earlier, continued);
    // A plan taken up again after the person answered its question: the model sees where it stands (Deputy's
    // note) and what its steps found (content, judged as such), beside the answer.
    const plan = planId
      ? refreshPlan(this.deps.runDeps(), { runId, threadId: threadId ?? '' }, planId)
      : null;
    const prompt = messages.at(-1);
    if (plan && prompt)
      prompt.parts.push({ kind: 'text', text: planNote(plan) }, { kind: 'text', text: planFindings(plan) });
    const state = initialState(systemInstruction, messages);
    const run = { id: runId, threadId: threadId ?? newRowId(), model: config.model };
    const deps = this.deps.runDeps();

    // The run, its prompt and its first checkpoint land together: from here on it survives a crash.
    store.transaction(() => {
      if (!threadId) store.threads.create(run.threadId, threadTitle(request.prompt), now);
      store.runs.create(
        { id: runId, threadId: run.threadId, model: config.model, prompt: request.prompt },
        now,
      );
      store.threads.addMessage({
        id: newRowId(),
        threadId: run.threadId,
        runId,
        role: 'user',
        text: request.prompt,
        createdAt: now,
      });
      store.threads.touch(run.threadId, now);
      if (planId) store.plans.attach(planId, runId, now);
      deps.checkpoints.save(this.deps.specFor(run, new AbortController().signal), state);
    });
    const ids = { runId, threadId: run.threadId };
    const unsubscribe = onEvent ? this.deps.subscribe(runId, onEvent) : () => {};
    this.deps.emit({ type: 'status', ...ids, status: 'queued' });
    const done = this.deps.track(run, async (signal) => {
      const spec = this.deps.specFor(run, signal);
      if (isByMeaning)
        await this.deps.instructions.withMemoriesByMeaning(spec, state, request.prompt, (at, saved) =>
          deps.checkpoints.save(at, saved),
        );
      return driveRun(deps, spec, state);
    });
    return { started: ids, done, unsubscribe };
  }

  private refuse(request: RunRequest, failure: RunFailure, onEvent?: (event: RunEvent) => void): Launched {
    const ids = { runId: newRowId(), threadId: request.threadId ?? newRowId() };
    // Subscribed before the record lands, so the listener hears the events once, live, not also rebuilt from it.
    const unsubscribe = onEvent ? this.deps.subscribe(ids.runId, onEvent) : () => {};
    const answer = recordRefusal(this.deps.store, {
      ...ids,
      newThreadTitle: request.threadId ? null : threadTitle(request.prompt),
      prompt: request.prompt,
      model: this.deps.settings.get().model,
      failure,
      now: this.deps.now().toISOString(),
      newId: newRowId,
    });
    const queued: RunEvent = { type: 'status', ...ids, status: 'queued' };
    for (const event of [queued, ...endingEvents(answer, failure.code)]) this.deps.publish(event);
    return { started: ids, done: Promise.resolve(answer), unsubscribe };
  }
}
