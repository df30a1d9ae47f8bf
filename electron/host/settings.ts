import {
  DEFAULT_AUTONOMY,
  isValidTimeZone,
  LOOP_STEPS,
  MAX_CONCURRENT_RUNS,
  ModelPrices,
  Settings,
  type PolicyRule,
  type SettingsPatch,
} from '../../shared/contract';
import { DEFAULT_MODEL_PRICES } from '../../shared/model-prices';
import { DEFAULT_RATE_LIMITS } from '../policy/types';
import { readModelConfig } from '../llm/model-config';
import { asRecord } from '../store/json';
import type { SettingsRepo } from '../store/settings-repo';

export type Env = Record<string, string | undefined>;

/** `AGENT_MAX_LOOP_STEPS`, default 8, clamped 1..15; anything unreadable falls back to the default. */
export function maxLoopStepsFromEnv(env: Env): number {
  const raw = Number.parseInt(env.AGENT_MAX_LOOP_STEPS ?? '', 10);
  if (!Number.isFinite(raw)) return LOOP_STEPS.default;
  return Math.min(LOOP_STEPS.max, Math.max(LOOP_STEPS.min, raw));
}

function systemTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

function isTimeZone(value: string | undefined): value is string {
  return value !== undefined && value !== '' && isValidTimeZone(value);
}

export const DEFAULT_TRUST_LEVEL = 'supervised';
export const DEFAULT_APPROVAL_EXPIRY_MINUTES = 30;
/** Parallel by default: a turn's independent reads finish together; approvals hold only their own calls. */
export const DEFAULT_EXECUTION = { executionPolicy: 'batch', maxParallel: 4 } as const;
export const DEFAULT_ROUTING_POLICY = 'quality';
export const DEFAULT_RUN_TIME_LIMIT_MINUTES = 15;

const SAFE_DEFAULTS = {
  trustLevel: DEFAULT_TRUST_LEVEL,
  autonomy: DEFAULT_AUTONOMY,
  allowlist: [],
  rules: [],
  approvalExpiryMinutes: DEFAULT_APPROVAL_EXPIRY_MINUTES,
  requireApprovalForFirstContact: true,
  rateLimits: DEFAULT_RATE_LIMITS,
  ...DEFAULT_EXECUTION,
  maxConcurrentRuns: MAX_CONCURRENT_RUNS.default,
  routingPolicy: DEFAULT_ROUTING_POLICY,
  showThinking: false,
  runTimeLimitMinutes: DEFAULT_RUN_TIME_LIMIT_MINUTES,
  embedRecentMail: false,
};

/** The settings rows of "Pause all side effects" (SettingsPatch cannot name them: they change only audited). */
const PAUSED_KEY = 'sideEffectsPaused';
const PAUSED_AT_KEY = 'sideEffectsPausedChangedAt';

/** `AGENT_SIDE_EFFECTS_ENABLED=false` (or 0/no/off) is the kill switch for every side-effect tool. */
export function areSideEffectsEnabled(env: Env): boolean {
  const value = env.AGENT_SIDE_EFFECTS_ENABLED?.trim().toLowerCase();
  return !(value === 'false' || value === '0' || value === 'no' || value === 'off');
}

/** Settings as runs read them: whether a Gemini key is there is asked of `SettingsService.get` alone. */
export type SettingsChoices = Omit<Settings, 'isGeminiConfigured'>;

/** Stored user choices over environment defaults. The Gemini key itself never leaves the main process. */
export class SettingsService {
  constructor(
    private readonly repo: SettingsRepo,
    private readonly env: Env,
    /** Whether a Gemini key is there (the vault's or the environment's); asked on every read, never cached. */
    private readonly hasGeminiKey: () => boolean = () => readModelConfig(env).apiKey !== null,
  ) {}

  /** Read on every step (`choices`): kept in memory, refreshed whenever `set` writes. */
  private cached: Settings | null = null;

  get(): Settings {
    this.cached ??= this.read();
    const isGeminiConfigured = this.hasGeminiKey();
    if (this.cached.isGeminiConfigured !== isGeminiConfigured)
      this.cached = { ...this.cached, isGeminiConfigured };
    return this.cached;
  }

  /**
   * The person's choices without asking whether a Gemini key is there: what runs read on every step (the policy,
   * the model budget, the pause switch). Asking the vault each time cost two secret reads a step.
   */
  choices(): SettingsChoices {
    this.cached ??= this.read();
    return this.cached;
  }

  private read(): Settings {
    const stored = this.repo.all();
    const text = (key: string): string | undefined => {
      const value = stored[key];
      return typeof value === 'string' ? value : undefined;
    };
    const steps = stored.maxLoopSteps;
    const model = readModelConfig(this.env);
    const candidate = {
      model: text('model') ?? model.model,
      timezone: text('timezone') ?? (isTimeZone(this.env.TZ) ? this.env.TZ : systemTimeZone()),
      userName: text('userName') ?? '',
      userEmail: text('userEmail') ?? '',
      preferences: text('preferences') ?? '',
      maxLoopSteps: typeof steps === 'number' ? steps : maxLoopStepsFromEnv(this.env),
      isGeminiConfigured: this.hasGeminiKey(),
      trustLevel: stored.trustLevel ?? DEFAULT_TRUST_LEVEL,
      autonomy: { ...DEFAULT_AUTONOMY, ...asRecord(stored.autonomy) },
      allowlist: stored.allowlist ?? [],
      rules: stored.rules ?? [],
      approvalExpiryMinutes: stored.approvalExpiryMinutes ?? DEFAULT_APPROVAL_EXPIRY_MINUTES,
      requireApprovalForFirstContact: stored.requireApprovalForFirstContact ?? true,
      rateLimits: { ...DEFAULT_RATE_LIMITS, ...asRecord(stored.rateLimits) },
      executionPolicy: stored.executionPolicy ?? DEFAULT_EXECUTION.executionPolicy,
      maxParallel: stored.maxParallel ?? DEFAULT_EXECUTION.maxParallel,
      maxConcurrentRuns: stored.maxConcurrentRuns ?? MAX_CONCURRENT_RUNS.default,
      routingPolicy: stored.routingPolicy ?? DEFAULT_ROUTING_POLICY,
      showThinking: stored.showThinking ?? false,
      runTimeLimitMinutes: stored.runTimeLimitMinutes ?? DEFAULT_RUN_TIME_LIMIT_MINUTES,
      embedRecentMail: stored.embedRecentMail === true,
      // Checked on its own: a damaged table falls back to the list prices, not every setting to the safe ones.
      modelPrices: ModelPrices.safeParse(stored.modelPrices).data ?? { ...DEFAULT_MODEL_PRICES },
      areSideEffectsEnabled: areSideEffectsEnabled(this.env),
      areSideEffectsPaused: stored[PAUSED_KEY] === true,
    };
    // Stored values were checked on the way in; a row damaged since then falls back to the safe defaults.
    const parsed = Settings.safeParse(candidate);
    return parsed.success ? parsed.data : Settings.parse({ ...candidate, ...SAFE_DEFAULTS });
  }

  set(patch: SettingsPatch): Settings {
    const current = this.get();
    this.repo.set({
      ...patch,
      ...(patch.autonomy && { autonomy: { ...current.autonomy, ...patch.autonomy } }),
      ...(patch.rateLimits && { rateLimits: { ...current.rateLimits, ...patch.rateLimits } }),
    });
    this.cached = null;
    return this.get();
  }

  /**
   * The run-time kill switch, kept in the same table as every core setting so the headless host sees it too.
   * Only SideEffectsSwitch calls this, inside the transaction that also writes its audit entry.
   */
  setPaused(isPaused: boolean, at: string): void {
    this.repo.set({ [PAUSED_KEY]: isPaused, [PAUSED_AT_KEY]: at });
    this.cached = null;
  }

  /** When the pause last changed, or null if it never has. */
  pausedChangedAt(): string | null {
    const at = this.repo.all()[PAUSED_AT_KEY];
    return typeof at === 'string' ? at : null;
  }

  addRule(rule: PolicyRule): Settings {
    return this.set({ rules: [...this.get().rules, rule] });
  }
}
