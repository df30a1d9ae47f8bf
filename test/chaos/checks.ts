import { chaosMarker, runNumberOf, type SideEffectTool } from './chaos-model';
import type { EffectsAtFakes, RecordedEffect } from './fakes';
import type { ActionTrail, LedgerHistory, LostCommit } from './history';
import { committedState, type LedgerSnapshot } from './ledger';

/** The same side effect made more than once: the fake recorded `count` of them for one run's marker. */
export interface Duplicate {
  tool: SideEffectTool;
  marker: string;
  count: number;
  /** The idempotency key each copy carried: equal keys mean the lookup before the send missed its own copy. */
  keys: (string | null)[];
  runIds: string[];
  ledger: ActionTrail[];
}

/** A run that is neither finished nor waiting on a pending approval: nothing will move it on. */
export interface StuckRun {
  runId: string;
  prompt: string;
  status: string;
  /** The run's side-effect actions as "tool:state", in order. */
  actions: string[];
  /** The run's approvals as "tool:status", in order. */
  approvals: string[];
}

const EFFECTS_OF: Record<SideEffectTool, keyof EffectsAtFakes> = {
  gmail_send: 'mail',
  calendar_event_create: 'events',
  slack_send: 'posts',
};

/** Every run's marker → its run ids (one, unless the driver itself started a run twice). */
function runsByMarker(snapshot: LedgerSnapshot): Map<string, string[]> {
  const byMarker = new Map<string, string[]>();
  for (const run of snapshot.runs) {
    const k = runNumberOf(run.prompt);
    if (k === null) continue;
    const marker = chaosMarker(k);
    byMarker.set(marker, [...(byMarker.get(marker) ?? []), run.id]);
  }
  return byMarker;
}

export function findDuplicates(
  effects: EffectsAtFakes,
  snapshot: LedgerSnapshot,
  history: LedgerHistory,
): Duplicate[] {
  const runs = runsByMarker(snapshot);
  const duplicates: Duplicate[] = [];
  for (const [tool, kind] of Object.entries(EFFECTS_OF) as [SideEffectTool, keyof EffectsAtFakes][]) {
    const byMarker = new Map<string, RecordedEffect[]>();
    for (const effect of effects[kind])
      byMarker.set(effect.marker, [...(byMarker.get(effect.marker) ?? []), effect]);
    for (const [marker, copies] of byMarker) {
      if (copies.length < 2) continue;
      const runIds = runs.get(marker) ?? [];
      duplicates.push({
        tool,
        marker,
        count: copies.length,
        keys: copies.map((copy) => copy.key),
        runIds,
        ledger: runIds.flatMap((runId) => history.trailsOfRun(runId, tool)),
      });
    }
  }
  return duplicates;
}

/** The extra copies: a mail sent three times is two duplicates. */
export const duplicateCount = (duplicates: readonly Duplicate[]): number =>
  duplicates.reduce((sum, duplicate) => sum + duplicate.count - 1, 0);

/** Committed actions whose effect the fake never saw (the ledger claims something that did not happen). */
export function findMissingEffects(
  effects: EffectsAtFakes,
  snapshot: LedgerSnapshot,
  history: LedgerHistory,
): LostCommit[] {
  const markerOfRun = new Map(
    snapshot.runs.map((run) => {
      const k = runNumberOf(run.prompt);
      return [run.id, k === null ? null : chaosMarker(k)];
    }),
  );
  return history.committedActions().flatMap(({ action, cycle }) => {
    const kind = EFFECTS_OF[action.tool as SideEffectTool];
    const marker = markerOfRun.get(action.runId);
    if (kind === undefined || marker === undefined || marker === null) return [];
    if (effects[kind].some((effect) => effect.marker === marker)) return [];
    return [
      {
        actionId: action.id,
        runId: action.runId,
        tool: action.tool,
        committedInCycle: cycle,
        reason: 'effect_missing' as const,
        detail: `the ledger says committed, but the fake has no ${kind} "${marker}"`,
        trail: history.trail(action.id),
      },
    ];
  });
}

export function findStuckRuns(snapshot: LedgerSnapshot): StuckRun[] {
  return snapshot.runs
    .filter((run) => run.status !== 'completed' && run.status !== 'failed')
    .filter(
      (run) => !(run.status === 'awaiting_confirmation' && snapshot.runsWithPendingApproval.has(run.id)),
    )
    .map((run) => ({
      runId: run.id,
      prompt: run.prompt,
      status: run.status,
      actions: snapshot.actions
        .filter((action) => action.runId === run.id)
        .map((action) => `${action.tool}:${action.state}`),
      approvals: snapshot.approvals
        .filter((approval) => approval.runId === run.id)
        .map((approval) => `${approval.tool}:${approval.status}`),
    }));
}

/**
 * Effects the fakes saw that the final ledger does not hold as committed for that run and tool. Not a
 * violation by itself (a run the person stopped may leave one), but each is worth a look.
 */
export function countUncommittedEffects(effects: EffectsAtFakes, snapshot: LedgerSnapshot): number {
  const committed = committedState(snapshot.schemaVersion);
  const runs = runsByMarker(snapshot);
  let count = 0;
  for (const [tool, kind] of Object.entries(EFFECTS_OF) as [SideEffectTool, keyof EffectsAtFakes][]) {
    for (const marker of new Set(effects[kind].map((effect) => effect.marker))) {
      const runIds = new Set(runs.get(marker) ?? []);
      const isCommitted = snapshot.actions.some(
        (action) => action.tool === tool && runIds.has(action.runId) && action.state === committed,
      );
      if (!isCommitted) count += 1;
    }
  }
  return count;
}
