import { LOOP_STEPS, type Settings, type SettingsPatch } from '../../shared/contract';
import { readModelConfig } from '../llm/model-config';
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
  if (!value) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

/** Stored user choices over environment defaults. The Gemini key itself never leaves the main process. */
export class SettingsService {
  constructor(
    private readonly repo: SettingsRepo,
    private readonly env: Env,
  ) {}

  get(): Settings {
    const stored = this.repo.all();
    const text = (key: string): string | undefined => {
      const value = stored[key];
      return typeof value === 'string' ? value : undefined;
    };
    const steps = stored.maxLoopSteps;
    const model = readModelConfig(this.env);
    return {
      model: text('model') ?? model.model,
      timezone: text('timezone') ?? (isTimeZone(this.env.TZ) ? this.env.TZ : systemTimeZone()),
      userName: text('userName') ?? '',
      maxLoopSteps: typeof steps === 'number' ? steps : maxLoopStepsFromEnv(this.env),
      isGeminiConfigured: model.apiKey !== null,
    };
  }

  set(patch: SettingsPatch): Settings {
    this.repo.set(patch);
    return this.get();
  }
}
