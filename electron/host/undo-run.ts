import { DeputyError, type AuditEntry, type AuditUndoOutput, type RunEventOf } from '../../shared/contract';
import { undoCallId } from '../store/undo-ledger';
import { actionWords, isAsRecorded, thingWords } from './undo-conflict';
import { readCurrent, undoContext, planUndo, type UndoDeps, type UndoPlan } from './undo-plan';

/** The undo's ledger row and the audit entry of this attempt at it. */
export interface UndoIds {
  actionId: string;
  entryId: string;
}

const stamp = (deps: UndoDeps): string => deps.now().toISOString();

/**
 * Runs an approved undo like any side effect (DESIGN §5): `started` is written before the effect, `committed`
 * with its result after, each in its own transaction. A crash between the two leaves it `started`, and
 * `reconcileUndos` looks for the effect at the next start instead of undoing a second time.
 */
export async function runUndo(deps: UndoDeps, plan: UndoPlan, ids: UndoIds): Promise<AuditUndoOutput> {
  const { store } = deps;
  const check = deps.registry.check(plan.tool.name, plan.args);
  if (!check.ok) {
    const message = `It cannot be undone now: ${check.message}`;
    failUndo(deps, ids, plan.original, message);
    throw new DeputyError('conflict', message);
  }
  const startedAt = deps.now();
  const isStarted = store.transaction(() =>
    store.actions.markStarted(ids.actionId, ['approved'], undoCallId(plan.original.id), stamp(deps)),
  );
  if (!isStarted) throw new DeputyError('conflict', 'This undo is already under way.');
  const outcome = await deps.registry.undo(
    plan.tool,
    { input: check.input, output: plan.output, before: plan.original.entityBefore },
    undoContext(deps, plan, ids.actionId),
    (error) => deps.logError(`undoing ${plan.tool.name} failed unexpectedly`, error),
  );
  const durationMs = deps.now().getTime() - startedAt.getTime();
  if (!outcome.ok) {
    const said = `It could not be undone: ${outcome.failure.message}`;
    failUndo(deps, ids, plan.original, outcome.failure.message, { durationMs, said });
    throw new DeputyError(outcome.failure.transient ? 'service_unavailable' : 'conflict', said);
  }
  return commitUndo(deps, plan, ids, outcome.result, durationMs);
}

/** The undo happened: its ledger row, its entry and the original's `rolled_back` land in one transaction. */
export function commitUndo(
  deps: UndoDeps,
  plan: UndoPlan,
  ids: UndoIds,
  result: Record<string, unknown>,
  durationMs: number | null,
): AuditUndoOutput {
  const { store } = deps;
  const { original } = plan;
  store.transaction(() => {
    const now = stamp(deps);
    store.actions.finish(ids.actionId, { state: 'committed', result }, now);
    store.audit.change(
      ids.entryId,
      `status = 'completed', output_json = @output, duration_ms = @durationMs, entity_type = @entityType,
       entity_id = @entityId, entity_before = @before, entity_after = @after`,
      {
        output: JSON.stringify(result),
        durationMs,
        entityType: original.entityType,
        entityId: original.entityId,
        before: original.entityAfter === null ? null : JSON.stringify(original.entityAfter),
        after: original.entityBefore === null ? null : JSON.stringify(original.entityBefore),
      },
      now,
    );
    store.auditEdits.markUndone(original.id, ids.entryId, now);
  });
  tellConversation(deps, original, {
    message: `Undone: ${actionWords(original)}.`,
    isUndone: true,
  });
  const undone = store.auditQuery.get(ids.entryId);
  const updated = store.auditQuery.get(original.id);
  if (!undone || !updated) throw new Error('an undo entry vanished right after it was written');
  return {
    status: 'undone',
    message: undoneWords(original, result),
    undo: undone,
    original: updated,
    approvalId: null,
  };
}

/** How an undo that did not happen is recorded, beyond its message. */
export interface UndoFailure {
  durationMs?: number | null;
  state?: 'failed' | 'rejected' | 'unknown';
  /** What the conversation is told, when it differs from the entry's message. */
  said?: string;
}

/**
 * The undo did not happen (refused, failed, turned down, expired): its row and its entry say so, and the
 * conversation of the action it was for hears it, so that its card offers Undo again rather than still waiting.
 */
export function failUndo(
  deps: UndoDeps,
  ids: UndoIds,
  original: AuditEntry,
  message: string,
  { durationMs = null, state = 'failed', said = message }: UndoFailure = {},
): void {
  const { store } = deps;
  store.transaction(() => {
    const now = stamp(deps);
    store.actions.finish(ids.actionId, { state, error: message }, now);
    store.audit.change(
      ids.entryId,
      `status = 'failed', error_message = @message, duration_ms = COALESCE(@durationMs, duration_ms)`,
      { message, durationMs },
      now,
    );
  });
  tellConversation(deps, original, {
    message: said,
    undoNotDone: state === 'rejected' ? 'rejected' : 'failed',
  });
}

/**
 * At start-up: every undo cut short by a crash. An approved one that never started runs now (the person said
 * yes, and nothing was done yet). A started one is looked for, never run blindly again: the thing as the
 * undo would leave it means it happened (committed); as the action left it means it did not (failed, and the
 * person can undo again); anything else cannot be told, and the person is asked to look.
 */
export async function reconcileUndos(deps: UndoDeps): Promise<void> {
  const { store } = deps;
  for (const entryId of store.undoLedger.pendingEntries()) {
    try {
      const undo = store.auditQuery.get(entryId);
      const originalId = undo?.undo.undoOf;
      const original = originalId ? store.auditQuery.get(originalId) : null;
      const action = undo?.actionId ? store.actions.get(undo.actionId) : null;
      if (!undo) continue;
      if (!original || !action) {
        // Its conversation was deleted while it waited: there is nothing left to undo from.
        store.transaction(() =>
          store.audit.change(
            entryId,
            `status = 'failed', error_message = @message`,
            { message: 'Its conversation was deleted, so nothing was undone.' },
            deps.now().toISOString(),
          ),
        );
        continue;
      }
      const ids = { actionId: action.id, entryId };
      if (action.ledgerState === 'awaiting_confirmation') continue;
      if (action.ledgerState === 'approved') {
        await runUndo(deps, planUndo(deps, original), ids).catch((error: unknown) =>
          deps.logError('an approved undo could not run after a restart', error),
        );
        continue;
      }
      if (action.ledgerState !== 'started') continue;
      await settleStarted(deps, planUndo(deps, original), ids);
    } catch (error) {
      deps.logError(`could not reconcile the undo ${entryId}`, error);
    }
  }
}

async function settleStarted(deps: UndoDeps, plan: UndoPlan, ids: UndoIds): Promise<void> {
  const current = await readCurrent(deps, plan, ids.actionId);
  if (current.isKnown && isAsRecorded(plan.original.entityBefore, current.value)) {
    commitUndo(deps, plan, ids, { reconciled: true }, null);
  } else if (current.isKnown && isAsRecorded(plan.original.entityAfter, current.value)) {
    failUndo(
      deps,
      ids,
      plan.original,
      'Deputy stopped before this undo was done, so nothing was undone. You can undo it again.',
    );
  } else {
    // `unknown`: a new undo goes through the same checks, so it is never applied on top of itself blindly.
    failUndo(
      deps,
      ids,
      plan.original,
      'Deputy stopped during this undo and cannot tell whether it was done. Check it before undoing again.',
      { state: 'unknown' },
    );
  }
}

/**
 * Tells the conversation of the action an undo was for how it stands (waiting for approval) or ended: its card is
 * marked, not added to.
 */
export function tellConversation(
  deps: UndoDeps,
  original: AuditEntry,
  said: Pick<RunEventOf<'notice'>, 'message' | 'isUndone' | 'undoNotDone' | 'isUndoWaiting'>,
): void {
  const { actionId, runId, threadId } = original;
  if (!actionId || !runId || !threadId) return;
  // The conversation may be gone (deleted); its record of the undo is then the audit trail alone.
  if (!deps.store.runs.get(runId)) return;
  try {
    deps.emit({ type: 'notice', runId, threadId, actionId, tool: original.actionType, ...said });
  } catch (error) {
    deps.logError('telling the conversation about an undo failed', error);
  }
}

/** What an undo answers: what it undid, or that nothing was left to undo (and so nothing was done). */
function undoneWords(original: AuditEntry, result: Record<string, unknown>): string {
  const thing = `The ${thingWords(original.entityType)}`;
  const nothingDone =
    'so there was nothing left to undo and Deputy changed nothing. The action now shows as undone.';
  // A change put back since: the thing is as the action found it.
  if (result.wasAlreadyUndone === true && original.entityBefore !== null)
    return `${thing} was already back as it was before Deputy's action, ${nothingDone}`;
  // A thing the action made, deleted since: found so, or by a delete that found nothing.
  if (result.wasAlreadyGone === true || result.wasAlreadyUndone === true)
    return `${thing} was already deleted outside Deputy, ${nothingDone}`;
  return `Undone: ${actionWords(original)}.`;
}
