import {
  type ActionRecord,
  type Approval,
  LIMITS,
  type LineageNode,
  notFound,
  type RunRecord,
  type ThreadDetail,
} from '../../../shared/contract';
import { planView } from '../../engine/plans/plan-progress';
import { lineageView } from '../agent-lineage';
import type { ActionUndoState } from '../../store/audit-query';
import type { Store } from '../../store/store';
import type { DataDesk } from '../data-desk';
import type { ThreadExport } from '../thread-export';
import type { HandlersFor } from './handlers';

type ThreadChannel =
  | 'threads.list'
  | 'threads.search'
  | 'thread.get'
  | 'thread.delete'
  | 'thread.rename'
  | 'threads.prune'
  | 'threads.export';

/** The threads domain: the conversation list, one conversation whole, renaming, deleting, pruning, exporting. */
export function threadChannels(
  store: Store,
  data: DataDesk,
  approvalsOf: (threadId: string) => Approval[],
  exporter: ThreadExport,
): HandlersFor<ThreadChannel> {
  return {
    'threads.list': (input) => store.threads.list(input.limit ?? LIMITS.threadListPage, input.before),
    'threads.search': (input) => ({ hits: store.threadSearch.search(input.query, input.limit ?? 20) }),
    'thread.get': (input) => threadDetail(store, input.threadId, approvalsOf),
    'thread.delete': (input) => data.deleteThread(input),
    'thread.rename': (input) => {
      const renamed = store.threads.rename(input.threadId, input.title);
      if (!renamed) throw missing(input.threadId);
      return renamed;
    },
    'threads.prune': (input) => data.prune(input),
    'threads.export': (input) => exporter.page(input),
  };
}

/**
 * A conversation with its messages, its actions (with where each stands for Undo), its runs, its plans and the
 * approvals its actions asked for.
 */
function threadDetail(
  store: Store,
  threadId: string,
  approvalsOf: (threadId: string) => Approval[],
): ThreadDetail {
  const thread = store.threads.get(threadId);
  if (!thread) throw missing(threadId);
  const actions = store.actions.byThread(threadId);
  const undo = store.auditQuery.undoStates(actions.map((action) => action.id));
  const runs = store.runs.byThread(threadId);
  return {
    thread,
    messages: store.threads.messages(threadId),
    actions: actions.map((action) => withUndo(action, undo.get(action.id))),
    runs,
    plans: store.plans.byThread(threadId).map((plan) => planView({ store }, plan)),
    approvals: approvalsOf(threadId),
    lineage: delegatedTrees(store, runs),
  };
}

/** The agent trees of the top-level runs that delegated: only those, so a thread of plain answers reads none. */
function delegatedTrees(store: Store, runs: readonly RunRecord[]): LineageNode[] {
  const parents = new Set(runs.flatMap((run) => (run.parentRunId ? [run.parentRunId] : [])));
  return runs
    .filter((run) => run.parentRunId === undefined && parents.has(run.id))
    .flatMap((run) => lineageView(store, run.id).nodes);
}

/** An action's Undo fields, each only when it says something (an action with no audit entry gets none). */
function withUndo(action: ActionRecord, state: ActionUndoState | undefined): ActionRecord {
  if (!state) return action;
  return {
    ...action,
    ...(state.isUndone && { isUndone: true }),
    ...(state.canUndo && { canUndo: true }),
    ...(state.isUndoWaiting && { isUndoWaiting: true }),
    ...(state.undoNote !== null && { undoNote: state.undoNote }),
  };
}

const missing = (id: string) => notFound('conversation', id);
