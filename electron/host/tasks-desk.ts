import {
  DeputyError,
  type RunEvent,
  type RunRequest,
  type RunStarted,
  type TaskItem,
  type TasksChangeInput,
  type TasksChangeOutput,
} from '../../shared/contract';
import type { Store } from '../store/store';
import { TASKS_THREAD_ID } from '../../shared/contract';
import { DIRECT_CALL_ID, DIRECT_CALL_MODEL, directCallPrompt } from './direct-call-model';

/** How many tasks the panel shows at once, newest first within each status. */
const PANEL_LIMIT = 500;

export interface TasksDeskDeps {
  store: Store;
  now: () => Date;
  /** Starts a run in the Tasks panel's thread that leaves the thread's waiting approvals waiting. */
  start: (request: RunRequest, model: string) => RunStarted;
  subscribe: (runId: string, listener: (event: RunEvent) => void) => () => void;
  /** The tool's own check of its arguments: what the panel sends is refused with a 400 before any run. */
  check: (tool: string, args: Record<string, unknown>) => { ok: true } | { ok: false; message: string };
}

/**
 * The Tasks panel: reads the list, and makes each change the person asks for as the chat would, by the
 * chat's task tools in a run of its own (a direct call, no model asked), so the policy, the person's rules,
 * the kill switch, the ledger, the audit trail and undo all apply the same.
 */
export class TasksDesk {
  constructor(private readonly deps: TasksDeskDeps) {}

  list(status: 'open' | 'done' | 'all' = 'all'): { tasks: TaskItem[] } {
    return {
      tasks: this.deps.store.tasks
        .list({ status, limit: PANEL_LIMIT })
        .map(({ id, description, due, notes, status: state, createdAt, completedAt }) => ({
          id,
          description,
          due,
          notes,
          status: state,
          createdAt,
          completedAt,
        })),
    };
  }

  /** Answers once the change is done, refused, failed, or waiting for the person's approval. */
  async change(input: TasksChangeInput): Promise<TasksChangeOutput> {
    const { store } = this.deps;
    const checked = this.deps.check(input.tool, input.args);
    if (!checked.ok) throw new DeputyError('invalid_input', checked.message);
    if (!store.threads.get(TASKS_THREAD_ID))
      store.transaction(() =>
        store.threads.create(TASKS_THREAD_ID, 'Tasks panel', this.deps.now().toISOString()),
      );
    const prompt = directCallPrompt({
      client: 'the Tasks panel',
      tool: input.tool,
      args: input.args,
      isPerson: true,
    });
    const started = this.deps.start({ prompt, threadId: TASKS_THREAD_ID }, DIRECT_CALL_MODEL);
    // The bus replays what the run already emitted to a new subscriber: an ending that came first is not missed.
    let unsubscribe = (): void => {};
    await new Promise<void>((resolve) => {
      unsubscribe = this.deps.subscribe(started.runId, (event) => {
        if (event.type === 'result') resolve();
      });
    });
    queueMicrotask(unsubscribe);
    return this.outcome(started.runId);
  }

  private outcome(runId: string): TasksChangeOutput {
    const { store } = this.deps;
    const entry = store.actions.byCall(runId, DIRECT_CALL_ID);
    const run = store.runs.get(runId);
    if (!entry)
      return { status: 'failed', reason: run?.errorMessage ?? run?.summary ?? 'The change did not run.' };
    switch (entry.ledgerState) {
      case 'committed':
        return { status: 'done', result: entry.result ?? {} };
      case 'awaiting_confirmation': {
        const approval = store.approvals.get(entry.id);
        if (approval?.status === 'pending') return { status: 'waiting', approvalId: approval.id };
        return { status: 'failed', reason: 'The change waited for an approval that is no longer there.' };
      }
      case 'rejected':
        return { status: 'refused', reason: entry.error ?? 'Deputy did not make this change.' };
      default:
        return { status: 'failed', reason: entry.error ?? run?.errorMessage ?? 'The change did not finish.' };
    }
  }
}
