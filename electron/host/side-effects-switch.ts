import type { SideEffectsChangedEvent, SideEffectsState } from '../../shared/contract';
import type { Store } from '../store/store';
import type { SettingsService } from './settings';

type Listener = (event: SideEffectsChangedEvent) => void;

export interface SideEffectsSwitchDeps {
  store: Store;
  settings: SettingsService;
  now: () => Date;
  /** Runs held while paused go on once the person resumes. */
  onResumed: () => void;
}

/**
 * "Pause all side effects" at run time. The flag is a core setting (SQLite), read by the policy on every call
 * (`kill_switch:paused`), by the approval desk (an approval waits while paused) and by start-up (runs are not
 * resumed while paused). Each flip is an audit entry, written in the transaction that writes the flag.
 */
export class SideEffectsSwitch {
  private readonly listeners = new Set<Listener>();

  constructor(private readonly deps: SideEffectsSwitchDeps) {}

  isPaused(): boolean {
    return this.deps.settings.get().areSideEffectsPaused;
  }

  state(): SideEffectsState {
    const settings = this.deps.settings.get();
    return {
      isPaused: settings.areSideEffectsPaused,
      isDisabledByEnvironment: !settings.areSideEffectsEnabled,
      changedAt: this.deps.settings.pausedChangedAt(),
    };
  }

  set(isPaused: boolean): SideEffectsState {
    // Saying the same thing twice changes nothing and adds no entry.
    if (isPaused === this.isPaused()) return this.state();
    const { store, settings } = this.deps;
    const at = this.deps.now().toISOString();
    const event = isPaused ? 'side_effects_paused' : 'side_effects_resumed';
    store.transaction(() => {
      settings.setPaused(isPaused, at);
      store.audit.open(
        {
          kind: 'record',
          agentId: 'person',
          actionType: event,
          actionCategory: 'record',
          input: { isPaused },
          status: 'completed',
          approvedBy: 'person',
          approvedAt: at,
          undoNote: 'Flip the switch again to change it back.',
        },
        at,
      );
      store.policy.audit({
        timestamp: at,
        runId: null,
        actionId: null,
        tool: null,
        event,
        decision: null,
        rule: 'kill_switch:paused',
        reason: null,
        detail: { isPaused },
      });
    });
    const state = this.state();
    for (const listener of this.listeners) safely(listener, { type: 'sideEffects.changed', state });
    if (!isPaused) this.deps.onResumed();
    return state;
  }

  /** `sideEffects.changed`: the current state at once, then every flip. */
  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    safely(listener, { type: 'sideEffects.changed', state: this.state() });
    return () => {
      this.listeners.delete(listener);
    };
  }
}

function safely(listener: Listener, event: SideEffectsChangedEvent): void {
  try {
    listener(event);
  } catch {
    // A subscriber's failure is its transport's to handle; the others still hear about the flip.
  }
}
