import { z } from 'zod';
import { LOOP_STEPS } from './limits';

/** What the user can change. Secrets never appear here: only whether they are configured. */
export const SettingsPatch = z
  .object({
    model: z.string().trim().min(1).max(100).optional(),
    timezone: z
      .string()
      .trim()
      .min(1)
      .max(100)
      .refine((tz) => isValidTimeZone(tz), 'unknown IANA time zone')
      .optional(),
    userName: z.string().trim().max(100).optional(),
    maxLoopSteps: z.number().int().min(LOOP_STEPS.min).max(LOOP_STEPS.max).optional(),
  })
  .strict();
export type SettingsPatch = z.infer<typeof SettingsPatch>;

export const Settings = z.object({
  model: z.string(),
  timezone: z.string(),
  userName: z.string(),
  maxLoopSteps: z.number().int(),
  isGeminiConfigured: z.boolean(),
});
export type Settings = z.infer<typeof Settings>;

export const SettingsGetInput = z.object({}).strict().default({});

function isValidTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}
