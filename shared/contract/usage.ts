import { z } from 'zod';

/** A model id as Gemini names it, without the `models/` prefix. */
export const ModelId = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .regex(/^[a-z0-9][a-z0-9._-]*$/i, 'a model id such as gemini-2.5-flash');

const Dollars = z.number().finite().min(0, 'a price cannot be negative').max(10_000);
export const ModelPriceSchema = z.object({ input: Dollars, output: Dollars }).strict();
/** The person's price table: dollars per million input and output tokens, per model. */
export const ModelPrices = z
  .record(ModelId, ModelPriceSchema)
  .refine((table) => Object.keys(table).length <= 100, {
    message: 'at most 100 models',
  });

export const Tokens = z.object({
  inputTokens: z.number().int().min(0),
  outputTokens: z.number().int().min(0),
});
export type Tokens = z.infer<typeof Tokens>;

export const UsageDailyInput = z
  .object({ days: z.number().int().min(1).max(90).optional() })
  .strict()
  .default({});
export type UsageDailyInput = z.infer<typeof UsageDailyInput>;

const ModelUsage = Tokens.extend({ model: z.string(), cost: z.number().nullable() });
export const UsageDay = Tokens.extend({
  /** The day in the person's time zone, YYYY-MM-DD. */
  day: z.string(),
  /** Dollars by the price table; null when none of the day's models has a price. */
  cost: z.number().nullable(),
  byModel: z.array(ModelUsage),
});
export type UsageDay = z.infer<typeof UsageDay>;

export const UsageDailyOutput = z.object({
  timezone: z.string(),
  /** Newest first; only days with usage. */
  days: z.array(UsageDay),
  total: Tokens.extend({ cost: z.number().nullable() }),
  /** Models used in these days that the price table does not price: their tokens count, their cost does not. */
  unpricedModels: z.array(z.string()),
});
export type UsageDailyOutput = z.infer<typeof UsageDailyOutput>;

export const ModelsListInput = z.object({ refresh: z.boolean().optional() }).strict().default({});
export const ModelInfo = z.object({
  id: z.string(),
  displayName: z.string(),
  description: z.string(),
  inputTokenLimit: z.number().nullable(),
});
export type ModelInfo = z.infer<typeof ModelInfo>;
export const ModelsListOutput = z.object({
  /** The models the key can chat with (they support generateContent), by display name. */
  models: z.array(ModelInfo),
  /** Why the list is empty or old, in words (no key, Gemini unreachable); null when it is fresh. */
  note: z.string().nullable(),
});
export type ModelsListOutput = z.infer<typeof ModelsListOutput>;
