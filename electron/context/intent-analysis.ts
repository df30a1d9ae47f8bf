import { z } from 'zod';

/**
 * Spec 004's Intent Analysis Output, as the model gives it when it asks for context: its own structured
 * account of the request, taken from the call it makes anyway, so no extra model round trip is spent on it.
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

/** Below this, the request is not understood well enough to act on: the person is asked (AMBIGUITY:UNCLEAR_INTENT). */
export const CLEAR_INTENT_AT_LEAST = 0.7;

/** The question the run must end with, or null when the intent is clear enough to go on. */
export function intentQuestion(analysis: IntentAnalysis): string | null {
  const [asked] = analysis.clarificationQuestions;
  if (analysis.clarificationNeeded || analysis.confidence < CLEAR_INTENT_AT_LEAST) {
    return (
      asked ?? `I am not sure I understood what you want (“${analysis.intent}”). Could you say a little more?`
    );
  }
  return null;
}

export const personNames = (analysis: IntentAnalysis): string[] =>
  analysis.entities.filter((entity) => entity.type === 'person').map((entity) => entity.value);
