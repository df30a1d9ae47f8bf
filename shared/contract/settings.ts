import { z } from 'zod';
import { LOOP_STEPS, MAX_CONCURRENT_RUNS } from './limits';
import { ActionKind, AutonomyLevel, PolicyRule, TrustLevel } from './policy';
import { ExecutionPolicy, RoutingPolicy } from './run';
import { ModelPrices } from './usage';

export const RateLimitsSchema = z.object({
  actionsPerMinute: z.number().int().min(1).max(10_000),
  externalCallsPerHour: z.number().int().min(1).max(100_000),
  modelTokensPerHour: z.number().int().min(1_000).max(100_000_000),
});

/**
 * A Gemini model's id (`gemini-2.5-flash`, or `models/…`, `tunedModels/…`). Anything else Gemini's client refuses
 * before it asks, or sends to an address Gemini does not have, and every request with it would fail.
 */
export const GeminiModelId = z
  .string()
  .trim()
  .max(100)
  .regex(
    /^(?:(?:models|tunedModels)\/)?[A-Za-z0-9][A-Za-z0-9._-]*$/,
    'a Gemini model id, such as gemini-2.5-flash',
  );

/** What the user can change. Secrets never appear here: only whether they are configured. */
export const SettingsPatch = z
  .object({
    model: GeminiModelId.optional(),
    timezone: z
      .string()
      .trim()
      .min(1)
      .max(100)
      .refine((tz) => isValidTimeZone(tz), 'unknown IANA time zone')
      .optional(),
    userName: z.string().trim().max(100).optional(),
    /** The user's own address, for the [ABOUT THE USER] block and "me" in mail and events. */
    userEmail: z.union([z.literal(''), z.string().trim().toLowerCase().email().max(300)]).optional(),
    /** Free-text preferences the assistant should honour ("short replies", "no meetings before 10"). */
    preferences: z.string().trim().max(2_000).optional(),
    maxLoopSteps: z.number().int().min(LOOP_STEPS.min).max(LOOP_STEPS.max).optional(),
    trustLevel: TrustLevel.optional(),
    /** Only the kinds given change; the others keep their level. */
    autonomy: z.partialRecord(ActionKind, AutonomyLevel).optional(),
    /** Addresses (`sam@x.io`) or domains (`@x.io`) that delegated trust may send to without asking. */
    allowlist: z.array(z.string().trim().toLowerCase().min(3).max(300)).max(500).optional(),
    /** The whole list of rules: removing one revokes it. */
    rules: z.array(PolicyRule).max(500).optional(),
    approvalExpiryMinutes: z
      .number()
      .int()
      .min(1)
      .max(7 * 24 * 60)
      .optional(),
    requireApprovalForFirstContact: z.boolean().optional(),
    rateLimits: RateLimitsSchema.partial().optional(),
    /** `interactive`: one tool call per turn; `batch`: a turn's calls run together, up to `maxParallel`. */
    executionPolicy: ExecutionPolicy.optional(),
    maxParallel: z.number().int().min(1).max(8).optional(),
    /** Runs that work at once; more wait in line with status `queued`. */
    maxConcurrentRuns: z.number().int().min(MAX_CONCURRENT_RUNS.min).max(MAX_CONCURRENT_RUNS.max).optional(),
    routingPolicy: RoutingPolicy.optional(),
    /** Show the model's thought summaries while it works (spec 004's `thinking` events); off by default. */
    showThinking: z.boolean().optional(),
    /** A run that passes this gets one final-warning turn to wrap up. */
    runTimeLimitMinutes: z
      .number()
      .int()
      .min(1)
      .max(24 * 60)
      .optional(),
    /**
     * Opt-in: keep the subjects and snippets of recent received mail in the context index and embed them (sent to
     * Gemini to be turned into vectors), so query_context finds mail by meaning. Off by default.
     */
    embedRecentMail: z.boolean().optional(),
    /** The whole price table (dollars per million tokens, per model) for the usage estimates. */
    modelPrices: ModelPrices.optional(),
  })
  .strict();
export type SettingsPatch = z.infer<typeof SettingsPatch>;

/**
 * Fields of Settings that are facts, not choices (whether a key is configured, the environment's kill
 * switch, the run-time pause, which changes only through `sideEffects.set` so every flip is audited). A client that PUTs back what it GOT may send them: they are dropped, not refused.
 */
export const READ_ONLY_SETTINGS = [
  'isGeminiConfigured',
  'areSideEffectsEnabled',
  'areSideEffectsPaused',
] as const;

export const Settings = z.object({
  model: z.string(),
  timezone: z.string(),
  userName: z.string(),
  userEmail: z.string(),
  preferences: z.string(),
  maxLoopSteps: z.number().int(),
  isGeminiConfigured: z.boolean(),
  trustLevel: TrustLevel,
  autonomy: z.record(ActionKind, AutonomyLevel),
  allowlist: z.array(z.string()),
  rules: z.array(PolicyRule),
  approvalExpiryMinutes: z.number().int(),
  requireApprovalForFirstContact: z.boolean(),
  rateLimits: RateLimitsSchema,
  executionPolicy: ExecutionPolicy,
  maxParallel: z.number().int(),
  maxConcurrentRuns: z.number().int(),
  routingPolicy: RoutingPolicy,
  showThinking: z.boolean(),
  runTimeLimitMinutes: z.number().int(),
  embedRecentMail: z.boolean(),
  modelPrices: z.record(z.string(), z.object({ input: z.number(), output: z.number() })),
  /** AGENT_SIDE_EFFECTS_ENABLED: read-only here, set in the environment. */
  areSideEffectsEnabled: z.boolean(),
  /** "Pause all side effects", set through `sideEffects.set` (audited), read-only here. */
  areSideEffectsPaused: z.boolean(),
});
export type Settings = z.infer<typeof Settings>;

export const SettingsGetInput = z.object({}).strict().default({});

/** Whether Intl knows the zone name (an IANA name such as Europe/Berlin, or UTC). */
export function isValidTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}
