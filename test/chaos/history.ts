import type { LedgerAction, LedgerSnapshot } from './ledger';
import { committedState } from './ledger';

/** One action's states as each snapshot saw it ("c12:started"), consecutive repeats folded. */
export interface ActionTrail {
  actionId: string;
  runId: string;
  callId: string;
  tool: string;
  states: string[];
  lastError: string | null;
}

/** A side effect the ledger once called committed and later did not (or that vanished). */
export interface LostCommit {
  actionId: string;
  runId: string;
  tool: string;
  committedInCycle: number;
  reason: 'state_changed' | 'row_missing' | 'effect_missing';
  detail: string;
  trail: ActionTrail | null;
}

/**
 * Follows the ledger across every life of the host: which actions were ever committed (and when), and the
 * trail of states of every side-effect action, for the details of a violation.
 */
export class LedgerHistory {
  private readonly committed = new Map<string, { action: LedgerAction; cycle: number }>();
  private readonly trails = new Map<string, ActionTrail>();
  private readonly lostIds = new Set<string>();

  /** Records a snapshot; answers the commits lost since the last one (each reported once). */
  observe(snapshot: LedgerSnapshot, cycle: number): LostCommit[] {
    const committedNow = committedState(snapshot.schemaVersion);
    const byId = new Map(snapshot.actions.map((action) => [action.id, action]));
    for (const action of snapshot.actions) {
      this.note(action, `c${cycle}:${action.state}`);
      if (action.state === committedNow && !this.committed.has(action.id))
        this.committed.set(action.id, { action, cycle });
    }
    const lost: LostCommit[] = [];
    for (const [id, { action, cycle: committedInCycle }] of this.committed) {
      if (this.lostIds.has(id)) continue;
      const now = byId.get(id);
      if (now?.state === committedNow) continue;
      this.lostIds.add(id);
      lost.push({
        actionId: id,
        runId: action.runId,
        tool: action.tool,
        committedInCycle,
        reason: now ? 'state_changed' : 'row_missing',
        detail: now
          ? `committed in cycle ${committedInCycle}, "${now.state}" in cycle ${cycle}`
          : `committed in cycle ${committedInCycle}, gone from the actions table in cycle ${cycle}`,
        trail: this.trail(id),
      });
    }
    return lost;
  }

  /** Actions ever seen committed and not reported lost, with the cycle that first saw them committed. */
  committedActions(): { action: LedgerAction; cycle: number }[] {
    return [...this.committed.entries()].filter(([id]) => !this.lostIds.has(id)).map(([, entry]) => entry);
  }

  trail(actionId: string): ActionTrail | null {
    const trail = this.trails.get(actionId);
    return trail ? { ...trail, states: [...trail.states] } : null;
  }

  trailsOfRun(runId: string, tool: string): ActionTrail[] {
    return [...this.trails.values()]
      .filter((trail) => trail.runId === runId && trail.tool === tool)
      .map((trail) => ({ ...trail, states: [...trail.states] }));
  }

  private note(action: LedgerAction, state: string): void {
    const trail = this.trails.get(action.id);
    if (!trail) {
      this.trails.set(action.id, {
        actionId: action.id,
        runId: action.runId,
        callId: action.callId,
        tool: action.tool,
        states: [state],
        lastError: action.error,
      });
      return;
    }
    const stateOnly = (entry: string | undefined): string | undefined => entry?.slice(entry.indexOf(':') + 1);
    if (stateOnly(trail.states.at(-1)) !== action.state) trail.states.push(state);
    trail.lastError = action.error;
  }
}
