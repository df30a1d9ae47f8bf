import type { IntentAnalysis } from '../../electron/context/intent-analysis';

/** A clear analysis of a request, as the model gives it to query_context; tests change what they need. */
export function intentAnalysis(overrides: Partial<IntentAnalysis> = {}): IntentAnalysis {
  return {
    intent: 'query_calendar',
    confidence: 0.9,
    entities: [],
    impliedNeeds: [],
    clarificationNeeded: false,
    clarificationQuestions: [],
    assumptions: [],
    ...overrides,
  };
}
