import {
  DeputyError,
  type AuditEntry,
  type AuditUndoOutput,
  type CommandParsedInput,
  type RunEvent,
  type Settings,
} from '../../shared/contract';
import { approverOf } from '../engine/audit-entries';
import { decide } from '../policy/decide';
import type { PolicyDecision } from '../policy/types';
import type { Store } from '../store/store';
import type { ToolRegistry } from '../tools/registry';
import type { Tool } from '../tools/tool';
import { asRecord } from '../store/json';
import { policyContext } from './policy-context';

export interface UndoDeps {
  store: Store;
  registry: ToolRegistry;
  settings: () => Settings;
  now: () => Date;
  newId: () => string;
  logError: (message: string, error: unknown) => void;
  /** Tells the conversation the action belonged to (its tool card) that it was undone. */
  emit: (event: RunEvent) => void;
}

/**
 * Undo is itself an action (spec 004's `Tool.undo`): it goes through the policy like any side effect, is
 * audited as its own entry, and marks the original `rolled_back` in the same transaction. The person asking
 * is the one who would approve it, so an undo the policy holds for approval runs once they confirm it
 * (`confirm: true`); one the policy denies (kill switch, rate limit) is refused and recorded.
 */
export async function undoEntry(
  deps: UndoDeps,
  input: CommandParsedInput<'audit.undo'>,
): Promise<AuditUndoOutput> {
  const { store } = deps;
  const original = store.auditQuery.get(input.id);
  if (!original) throw new DeputyError('not_found', `There is no audit entry with the id "${input.id}".`);
  const { tool, args, output } = undoable(deps, original);
  const check = deps.registry.check(tool.name, args);
  if (!check.ok) throw new DeputyError('conflict', `It cannot be undone now: ${check.message}`);

  const decision = undoDecision(deps, tool, check.input, args);
  const base = {
    kind: 'undo' as const,
    threadId: original.threadId,
    runId: original.runId,
    agentId: original.agentId,
    actionType: tool.name,
    actionCategory: 'undo',
    risk: tool.risk,
    intent: `Undo: ${original.actionType}`,
    target: original.target,
    input: { undoOf: original.id, args },
    decision: decision.kind,
    rule: decision.rule,
    reason: decision.reason,
    undoOf: original.id,
    undoNote: 'An undo is not undone; do the action again instead.',
  };
  const stamp = (): string => deps.now().toISOString();
  if (decision.kind === 'deny' || decision.kind === 'clarify') {
    store.transaction(() =>
      store.audit.open({ ...base, status: 'failed', errorMessage: decision.reason }, stamp()),
    );
    throw new DeputyError(decision.rule.startsWith('rate:') ? 'rate_limited' : 'conflict', decision.reason);
  }
  if (decision.kind === 'require_approval' && !input.confirm) {
    return { status: 'approval_required', message: decision.reason, undo: null, original };
  }

  const startedAt = deps.now();
  const undoId = store.transaction(() =>
    store.audit.open(
      {
        ...base,
        status: 'pending',
        approvedBy: decision.kind === 'allow' ? approverOf(decision.rule) : 'person',
        approvedAt: startedAt.toISOString(),
      },
      startedAt.toISOString(),
    ),
  );
  const outcome = await deps.registry.undo(
    tool,
    { input: check.input, output, before: original.entityBefore },
    {
      runId: original.runId ?? '',
      threadId: original.threadId ?? '',
      actionId: original.actionId ?? original.id,
      idempotencyKey: `undo:${original.id}`,
      signal: new AbortController().signal,
      now: deps.now,
    },
    (error) => deps.logError(`undoing ${tool.name} failed unexpectedly`, error),
  );
  const durationMs = deps.now().getTime() - startedAt.getTime();
  if (!outcome.ok) {
    store.transaction(() =>
      store.audit.change(
        undoId,
        `status = 'failed', error_message = @message, duration_ms = @durationMs`,
        { message: outcome.failure.message, durationMs },
        stamp(),
      ),
    );
    throw new DeputyError(
      outcome.failure.transient ? 'service_unavailable' : 'conflict',
      `It could not be undone: ${outcome.failure.message}`,
    );
  }
  store.transaction(() => {
    const now = stamp();
    store.audit.change(
      undoId,
      `status = 'completed', output_json = @output, duration_ms = @durationMs, entity_type = @entityType,
       entity_id = @entityId, entity_before = @before, entity_after = @after`,
      {
        output: JSON.stringify(outcome.result),
        durationMs,
        entityType: original.entityType,
        entityId: original.entityId,
        before: original.entityAfter === null ? null : JSON.stringify(original.entityAfter),
        after: original.entityBefore === null ? null : JSON.stringify(original.entityBefore),
      },
      now,
    );
    store.auditEdits.markUndone(original.id, undoId, now);
  });
  tellConversation(deps, original);
  const undone = store.auditQuery.get(undoId);
  const updated = store.auditQuery.get(original.id);
  if (!undone || !updated) throw new Error('an undo entry vanished right after it was written');
  return { status: 'undone', message: `Undone: ${original.actionType}.`, undo: undone, original: updated };
}

/** What an undo needs, or the reason there is none. */
function undoable(
  deps: UndoDeps,
  entry: AuditEntry,
): { tool: Tool; args: Record<string, unknown>; output: Record<string, unknown> } {
  const refuse = (message: string): never => {
    throw new DeputyError('conflict', message);
  };
  if (entry.kind !== 'tool_call') refuse('Only an action Deputy took can be undone.');
  if (entry.status === 'rolled_back') refuse('This action was already undone.');
  if (entry.status !== 'completed') refuse('Only an action that completed can be undone.');
  const tool = deps.registry.get(entry.actionType);
  if (!tool?.undo) return refuse(entry.undo.whyNot ?? 'This action cannot be undone.');
  const action = entry.actionId ? deps.store.actions.get(entry.actionId) : null;
  if (!action)
    return refuse('Its conversation was deleted, and with it what an undo would need; it cannot be undone.');
  return { tool, args: action.args, output: asRecord(action.result) };
}

function undoDecision(
  deps: UndoDeps,
  tool: Tool,
  input: unknown,
  args: Record<string, unknown>,
): PolicyDecision {
  const now = deps.now();
  return decide(
    {
      tool: {
        name: tool.name,
        category: tool.category,
        risk: tool.risk,
        hasSideEffects: true,
        ...(tool.actionKind && { actionKind: tool.actionKind }),
        ...(tool.isExternal !== undefined && { isExternal: tool.isExternal }),
        ...(tool.recipients && { recipients: () => tool.recipients?.(input) ?? [] }),
      },
      args,
      // The person asked for this undo themselves: there is no model confidence to weigh.
      meta: { intent: `Undo ${tool.name}`, confidence: 1 },
    },
    policyContext(deps.settings(), deps.store, now),
  );
}

function tellConversation(deps: UndoDeps, entry: AuditEntry): void {
  if (!entry.runId || !entry.threadId || !entry.actionId) return;
  // The conversation may be gone (deleted); its record of the undo is then the audit trail alone.
  if (!deps.store.runs.get(entry.runId)) return;
  try {
    deps.emit({
      type: 'notice',
      runId: entry.runId,
      threadId: entry.threadId,
      actionId: entry.actionId,
      tool: entry.actionType,
      message: `Undone from the audit trail: ${entry.actionType}.`,
    });
  } catch (error) {
    deps.logError('telling the conversation about an undo failed', error);
  }
}
