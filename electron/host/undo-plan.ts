import {
  DeputyError,
  type Approval,
  type AuditEntry,
  type RunEvent,
  type Settings,
} from '../../shared/contract';
import { asRecord } from '../store/json';
import type { Store } from '../store/store';
import type { ToolRegistry } from '../tools/registry';
import type { Tool, ToolContext } from '../tools/tool';
import { changesSince, isAsRecorded } from './undo-conflict';

export interface UndoDeps {
  store: Store;
  registry: ToolRegistry;
  settings: () => Settings;
  now: () => Date;
  newId: () => string;
  logError: (message: string, error: unknown) => void;
  /** Tells the conversation the action belonged to (its tool card) that it was undone. */
  emit: (event: RunEvent) => void;
  /** How long an approval waits before it expires. */
  approvalLifetimeMs: () => number;
  /** Tells the approvals list, the cards and the notifications that an approval appeared or changed. */
  publishApproval: (changed: Approval | null) => void;
}

/** What an undo of one entry works from: its tool, the original call's arguments and full stored result. */
export interface UndoPlan {
  original: AuditEntry;
  runId: string;
  threadId: string;
  tool: Tool;
  args: Record<string, unknown>;
  output: Record<string, unknown>;
}

/** What an undo needs, or the reason (a 409) there is none. */
export function planUndo(deps: UndoDeps, entry: AuditEntry): UndoPlan {
  const refuse = (message: string): never => {
    throw new DeputyError('conflict', message);
  };
  if (entry.kind !== 'tool_call') refuse('Only an action Deputy took can be undone.');
  if (entry.status === 'rolled_back') refuse('This action was already undone.');
  if (entry.status !== 'completed') refuse('Only an action that completed can be undone.');
  const tool = deps.registry.get(entry.actionType);
  if (!tool?.undo) return refuse(entry.undo.whyNot ?? 'This action cannot be undone.');
  const action = entry.actionId ? deps.store.actions.get(entry.actionId) : null;
  if (!action || !entry.runId || !entry.threadId)
    return refuse('Its conversation was deleted, and with it what an undo would need; it cannot be undone.');
  return {
    original: entry,
    runId: entry.runId,
    threadId: entry.threadId,
    tool,
    args: action.args,
    output: asRecord(action.result),
  };
}

/** The context an undo (or a read for one) runs with: the original's run, and the key of the undo itself. */
export function undoContext(deps: UndoDeps, plan: UndoPlan, actionId: string): ToolContext {
  return {
    runId: plan.runId,
    threadId: plan.threadId,
    actionId,
    idempotencyKey: `undo:${plan.original.id}`,
    signal: new AbortController().signal,
    now: deps.now,
  };
}

/** The thing an undo would reverse, as it is now, measured against what the action left and what it found. */
export interface UndoState {
  /** The fields that changed since the action (none when the tool cannot read it back). */
  changes: string[];
  /** It changed since, back to how the action found it (a task deleted, an edit put back): nothing to undo. */
  isAlreadyUndone: boolean;
}

/**
 * The thing the action changed, as it is now, compared with what the action left and with what it found. A
 * read that fails is a 503: nothing is undone blind.
 */
export async function readState(deps: UndoDeps, plan: UndoPlan, actionId: string): Promise<UndoState> {
  const current = await readCurrent(deps, plan, actionId);
  if (!current.isKnown) return { changes: [], isAlreadyUndone: false };
  const changes = changesSince(plan.original.entityAfter, current.value);
  return {
    changes,
    isAlreadyUndone: changes.length > 0 && isAsRecorded(plan.original.entityBefore, current.value),
  };
}

/** The thing as it is now; `isKnown` false when the tool cannot read it back. */
export async function readCurrent(
  deps: UndoDeps,
  plan: UndoPlan,
  actionId: string,
): Promise<{ isKnown: boolean; value: unknown }> {
  const { tool, original } = plan;
  if (!tool.current) return { isKnown: false, value: null };
  const check = deps.registry.check(tool.name, plan.args);
  if (!check.ok) throw new DeputyError('conflict', `It cannot be undone now: ${check.message}`);
  const read = await deps.registry.current(
    tool,
    { entityId: original.entityId, input: check.input, output: plan.output },
    undoContext(deps, plan, actionId),
    (error) => deps.logError(`reading what ${tool.name} changed failed unexpectedly`, error),
  );
  if (!read.ok)
    throw new DeputyError(
      'service_unavailable',
      `Deputy could not check it as it is now, so it did not undo it: ${read.failure.message}`,
    );
  return { isKnown: true, value: read.value };
}
