import { z } from 'zod';

/**
 * Spec 004's Intent Analysis Output: the model's own structured account of a request. One schema for every
 * place the model gives it (the `state_intent` control call, `query_context`'s `analysis`, a plan's analysis).
 */
export const IntentAnalysis = z
  .object({
    intent: z.string().trim().min(1).max(200).describe('The request in a few words, e.g. "query_calendar".'),
    confidence: z
      .number()
      .min(0)
      .max(1)
      .describe('How sure you are (0..1) you understood what the person wants.'),
    entities: z
      .array(
        z
          .object({
            type: z.enum(['person', 'datetime', 'place', 'organisation', 'other']),
            value: z.string().trim().min(1).max(200),
          })
          .strict(),
      )
      .max(20)
      .describe('What the request names: people, dates and times, places, organisations.'),
    impliedNeeds: z
      .array(z.string().trim().min(1).max(200))
      .max(10)
      .describe('What it needs but does not say.'),
    clarificationNeeded: z.boolean().describe('True when you cannot act without asking the person first.'),
    clarificationQuestions: z.array(z.string().trim().min(1).max(300)).max(5),
    assumptions: z
      .array(
        z
          .object({
            statement: z.string().trim().min(1).max(300),
            evidence: z.array(z.string().trim().min(1).max(300)).max(5),
          })
          .strict(),
      )
      .max(10)
      .describe('What you assumed, each with the evidence for it.'),
  })
  .strict();
export type IntentAnalysis = z.infer<typeof IntentAnalysis>;

/**
 * A run's intent as recorded: the model's account (`stated`), or the honest note that it gave none. `turn` is the
 * model turn it came with; `source` the call that carried it (`state_intent`, or a tool's `analysis` argument).
 */
export const RunIntent = z.discriminatedUnion('stated', [
  z.object({
    stated: z.literal(true),
    analysis: IntentAnalysis,
    source: z.string(),
    turn: z.number().int(),
    /** The question the engine asked instead of acting on it, if it asked one. */
    question: z.string().nullable(),
  }),
  z.object({ stated: z.literal(false), turn: z.number().int() }),
]);
export type RunIntent = z.infer<typeof RunIntent>;

/** Below this, the request is not understood well enough to act on: the person is asked (AMBIGUITY:UNCLEAR_INTENT). */
export const CLEAR_INTENT_AT_LEAST = 0.7;

/** The question a run must end with instead of acting, or null when the intent is clear enough to go on. */
export function intentQuestion(analysis: IntentAnalysis): string | null {
  const [asked] = analysis.clarificationQuestions;
  if (analysis.clarificationNeeded || analysis.confidence < CLEAR_INTENT_AT_LEAST) {
    return (
      asked ?? `I am not sure I understood what you want (“${analysis.intent}”). Could you say a little more?`
    );
  }
  return null;
}
