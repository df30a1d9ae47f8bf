import { z } from 'zod';
import type { Host } from '../../electron/host/create-host';
import type { ModelClient, ModelRequest, ModelStreamEvent } from '../../electron/llm/model-client';
import type { Store } from '../../electron/store/store';
import { ServiceError } from '../../electron/tools/service-errors';
import type { Tool } from '../../electron/tools/tool';
import type { RunRecord } from '../../shared/contract';
import { toolStateLabel } from '../../renderer/src/features/chat/tool-state';
import { ScriptedModel, type ScriptedTurn } from './scripted-model';

/**
 * A small world with one side effect that can be found again by its idempotency key, for crash tests of the
 * engine: `post_note` writes a note (and can hang before or after writing, as if Deputy died there),
 * `read_notes` reads them. Both host instances of a test share one world, as two runs of the app share Slack.
 */
export class NoteWorld {
  readonly notes: { key: string; text: string }[] = [];
  /** How often each tool's execute was entered. */
  readonly calls = { post: 0, read: 0 };
  hang: 'none' | 'before_effect' | 'after_effect' = 'none';
  /** Failures the next `post_note` calls throw, in order, before any note is written. */
  readonly postFailures: Error[] = [];
  canReconcile = true;
  /** While set, `read_notes` waits for it before it reads (a read still running when Deputy stopped). */
  readGate: Promise<void> | null = null;

  tools(): Tool[] {
    const postNote: Tool<{ text: string }, { posted: boolean; id: string }> = {
      name: 'post_note',
      description: 'Post a note to the shared board.',
      input: z.object({ text: z.string().min(1) }).strict(),
      output: z.object({ posted: z.boolean(), id: z.string() }),
      category: 'create',
      risk: 'low',
      hasSideEffects: true,
      actionKind: 'task.create',
      execute: async (input, context) => {
        this.calls.post += 1;
        const failure = this.postFailures.shift();
        if (failure) throw failure;
        if (this.hang === 'before_effect') return never();
        const found = this.notes.findIndex((note) => note.key === context.idempotencyKey);
        if (found < 0) this.notes.push({ key: context.idempotencyKey, text: input.text });
        if (this.hang === 'after_effect') return never();
        return { posted: true, id: `note-${this.indexOf(context.idempotencyKey)}` };
      },
    };
    if (this.canReconcile) {
      postNote.reconcile = async (_input, context) => {
        const index = this.indexOf(context.idempotencyKey);
        return index < 0 ? null : { posted: true, id: `note-${index}` };
      };
    }
    const readNotes: Tool<Record<string, never>, { notes: string[] }> = {
      name: 'read_notes',
      description: 'Read the board.',
      input: z.object({}).strict(),
      output: z.object({ notes: z.array(z.string()) }),
      category: 'query',
      risk: 'low',
      hasSideEffects: false,
      execute: async () => {
        this.calls.read += 1;
        if (this.hang === 'before_effect') return never();
        if (this.readGate) await this.readGate;
        return { notes: this.notes.map((note) => note.text) };
      },
    };
    return [postNote as Tool, readNotes as Tool];
  }

  indexOf(key: string): number {
    return this.notes.findIndex((note) => note.key === key);
  }
}

export const transient = (message: string, retryAfterSeconds: number | null = null): ServiceError =>
  new ServiceError('unavailable', message, 503, retryAfterSeconds, true);

function never<T>(): Promise<T> {
  return new Promise<T>(() => {});
}

/**
 * Stands in for the process dying: the host's database connection closes, so nothing it still has in flight
 * can write again. (Its hung call never finishes; nothing is recorded as failed or cancelled.)
 */
export function crash(host: Host): void {
  storeOf(host).close();
}

/**
 * Stands in for the process dying in the middle of a step: the connection goes without committing (unlike
 * `crash`, whose close commits), and the data folder's lock is dropped, as the operating system would.
 */
export function dieMidStep(host: Host): void {
  const store = storeOf(host);
  store.db.close();
  store.takeLock()?.release();
}

/** The host's store, for reading the ledger, the checkpoints and the runtime log in assertions. */
export function storeOf(host: Host): Store {
  return host.internalsForTests().store;
}

/** A call's card (as a stored thread gives it), the label the card shows, and its audit entry. */
export async function callOf(host: Host, threadId: string, tool: string) {
  const { actions } = await host.invoke('thread.get', { threadId });
  const action = actions.find((candidate) => candidate.tool === tool);
  if (!action) throw new Error(`no ${tool} call`);
  const store = storeOf(host);
  const entry = store.audit.read(store.audit.idOfAction(action.id) ?? '');
  return {
    card: {
      state: action.state,
      ledgerState: action.ledgerState,
      error: action.error,
      errorCode: action.errorCode,
      label: toolStateLabel(action.state, action.ledgerState),
    },
    audit: { status: entry?.status, errorMessage: entry?.errorMessage },
    id: action.id,
  };
}

/** Waits until the run is in one of `statuses` (polling the store through the contract). */
export async function waitForRun(
  host: Host,
  threadId: string,
  runId: string,
  statuses: RunRecord['status'][] = ['completed', 'failed'],
  timeoutMs = 5_000,
): Promise<RunRecord> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const thread = await host.invoke('thread.get', { threadId });
    const run = thread.runs.find((candidate) => candidate.id === runId);
    if (run && statuses.includes(run.status)) return run;
    if (Date.now() > deadline) throw new Error(`run ${runId} is still ${run?.status ?? 'missing'}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** How a run ended, as the contract reads it back, without what differs between two starts (ids, times). */
export async function endingOf(host: Host, threadId: string, runId: string) {
  const run = await waitForRun(host, threadId, runId);
  const { approvals } = await host.invoke('approval.list', { status: 'all' });
  const { actions } = await host.invoke('thread.get', { threadId });
  return {
    run: {
      status: run.status,
      errorCode: run.errorCode,
      errorMessage: run.errorMessage,
      summary: run.summary,
    },
    approvals: approvals.map(({ status, decisionNote }) => ({ status, decisionNote })),
    actions: actions
      .filter((action) => action.runId === runId)
      .map(({ state, ledgerState, error, errorCode }) => ({ state, ledgerState, error, errorCode })),
  };
}

/** Resolves once `predicate` holds (polling), for "the first host got this far" before a crash. */
export async function until(predicate: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error('timed out waiting for the condition');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** A scripted model that stops answering (hangs) from request number `hangAt` (0-based) on. */
export class HangingModel implements ModelClient {
  readonly inner: ScriptedModel;
  isHung = false;
  constructor(
    private readonly hangAt: number,
    ...turns: ScriptedTurn[]
  ) {
    this.inner = new ScriptedModel(...turns);
  }
  get requests(): ModelRequest[] {
    return this.inner.requests;
  }
  async *stream(request: ModelRequest): AsyncIterable<ModelStreamEvent> {
    if (this.inner.requests.length >= this.hangAt) {
      this.inner.requests.push({ ...request, messages: structuredClone(request.messages) });
      this.isHung = true;
      // Hangs like a dead connection; only the run's own cancellation ends it.
      await new Promise((_resolve, reject) =>
        request.signal.addEventListener('abort', () => reject(new Error('cancelled'))),
      );
    }
    yield* this.inner.stream(request);
  }
}

/**
 * The disk refuses the first write of `tool`'s outcome to the ledger (a call that throws: the loop cannot record
 * it). The triggers are the connection's own (TEMP), so a data folder opened again writes as usual. Says whether
 * the write was refused yet.
 */
export function refuseOutcomeOnce(host: Host, tool: string): () => boolean {
  let hasRefused = false;
  const { db } = storeOf(host);
  db.function('refuse_once', () => {
    if (hasRefused) return 0;
    hasRefused = true;
    throw new Error('disk I/O error');
  });
  for (const write of ['INSERT', 'UPDATE'])
    db.exec(`CREATE TEMP TRIGGER refuse_${tool}_${write} BEFORE ${write} ON main.actions
      WHEN NEW.tool = '${tool}' AND NEW.state <> 'executing' BEGIN SELECT refuse_once(); END`);
  return () => hasRefused;
}
