import { contractStateOf, type ActionState, type AuditStatus, type LedgerState } from '../../shared/contract';
import type { LedgerEntry } from '../store/action-rows';
import type { CallScope } from './call-context';
import { logRuntime } from './journal';
import { commitFound, CUT_OFF_LOOK_UP_MS, lookUpOnce } from './reconcile';
import type { RunLoopDeps, RunSpec } from './run-deps';
import type { CallPart, RunState } from './run-state';

/** What the ledger, the card and the audit trail say of a read still running when its run ended. */
export const READ_CUT_OFF =
  'Deputy stopped this because of an internal error. It only reads, so nothing was changed. The details are in the log.';

/** What they say of a side effect still running when its run ended: it may have happened, so it did not "fail". */
export const EFFECT_CUT_OFF =
  'Deputy stopped while doing this because of an internal error and cannot tell whether it happened. Check before asking for it again.';

/**
 * A run that ends while a call of it is still `started` in the ledger (the call threw: a bug, or a write the disk
 * refused) settles it, or it would read as running for ever. A read is marked failed: nothing happened that
 * matters. A side effect may have happened, so it is never called failed: it is left `started` and returned, for
 * the caller to settle (`settleUnsure`, or `lookForEndedCalls`). Inside the ending's transaction; an ending that
 * is a pause has no call running.
 */
export function settleCutOffCalls(deps: RunLoopDeps, spec: RunSpec, state: RunState): LedgerEntry[] {
  const effects: LedgerEntry[] = [];
  for (const entry of deps.store.actions.startedInRun(spec.runId)) {
    if (entry.hasSideEffects) {
      effects.push(entry);
      continue;
    }
    settleAs(deps, spec, entry, FAILED);
    logCutOffEnd(deps, spec, state, entry);
  }
  return effects;
}

/**
 * The side effects a run that has ended left `started` are looked for as a call cut off by a crash is at the next
 * start (reconcile.ts): by the key each carried, with the tool's look-up. Found, the call is committed with what
 * was found and its card says done; not found, or no way to look, it is `unknown` ("Not sure it happened").
 * Nothing is run again and no approval is asked: the run has ended. A call Deputy closes before it is settled
 * stays `started`, and the next start looks for it (settleEndedRuns).
 */
export async function lookForEndedCalls(
  deps: RunLoopDeps,
  spec: RunSpec,
  state: RunState,
  entries: readonly LedgerEntry[],
): Promise<void> {
  const scope = { deps, spec, state };
  await Promise.all(
    entries.map((entry) =>
      lookForEndedCall(scope, entry).catch((error: unknown) =>
        deps.logError(`could not look for what ${entry.tool} did before its run ended`, error),
      ),
    ),
  );
}

async function lookForEndedCall(scope: CallScope, entry: LedgerEntry): Promise<void> {
  const { deps, spec, state } = scope;
  const call: CallPart = { kind: 'call', callId: entry.callId, name: entry.tool, args: entry.args };
  const check = deps.registry.check(entry.tool, entry.args);
  const found = check.ok
    ? await lookUpOnce(scope, call, entry, check, AbortSignal.timeout(CUT_OFF_LOOK_UP_MS))
    : null;
  // Deputy is closing (its database already is): the call stays `started`, and the next start looks for it.
  if (!deps.store.db.open) return;
  deps.store.transaction(() => {
    // Settled meanwhile (another look-up for it landed first): left as it is.
    if (deps.store.actions.get(entry.id)?.ledgerState !== 'started') return;
    if (check.ok && found?.kind === 'found') {
      commitFound(scope, call, entry, check.tool, found.result);
      return;
    }
    logRuntime(
      deps,
      spec,
      'recovery',
      state.step,
      { tool: entry.tool, reconciled: found?.kind ?? 'uncheckable' },
      entry.callId,
    );
    settleUnsure(deps, spec, state, entry);
  });
  deps.store.writes.durable();
}

/** A side effect its run ended around whose effect was not found: `unknown`, "Not sure it happened". */
export function settleUnsure(deps: RunLoopDeps, spec: RunSpec, state: RunState, entry: LedgerEntry): void {
  settleAs(deps, spec, entry, UNKNOWN);
  logCutOffEnd(deps, spec, state, entry);
}

function logCutOffEnd(deps: RunLoopDeps, spec: RunSpec, state: RunState, entry: LedgerEntry): void {
  logRuntime(
    deps,
    spec,
    'tool_call_end',
    state.step,
    { tool: entry.tool, actionId: entry.id, ok: false, errorCode: 'internal', cutOff: true },
    entry.callId,
  );
}

interface CutOff {
  ledgerState: LedgerState;
  /** What the card shows until the thread is read again (`unknown` waits for the person, as the contract says). */
  cardState: ActionState;
  /** The audit trail has no "not sure": an unknown call's entry stays pending, with the same words. */
  auditStatus: AuditStatus;
  words: string;
  code: string;
}

const FAILED: CutOff = {
  ledgerState: 'failed',
  cardState: 'failed',
  auditStatus: 'failed',
  words: READ_CUT_OFF,
  code: 'internal',
};
const UNKNOWN: CutOff = {
  ledgerState: 'unknown',
  cardState: contractStateOf('unknown'),
  auditStatus: 'pending',
  words: EFFECT_CUT_OFF,
  code: 'outcome_unknown',
};

function settleAs(deps: RunLoopDeps, spec: RunSpec, entry: LedgerEntry, how: CutOff): void {
  const now = deps.now().toISOString();
  const { words, code } = how;
  deps.store.actions.finish(entry.id, { state: how.ledgerState, error: words, errorCode: code }, now);
  deps.store.audit.settle(entry.id, { status: how.auditStatus, errorMessage: words }, now);
  deps.emit({
    type: 'tool_result',
    runId: spec.runId,
    threadId: spec.threadId,
    actionId: entry.id,
    tool: entry.tool,
    state: how.cardState,
    error: words,
    code,
  });
}
