import { CLEAR_INTENT_AT_LEAST, IntentAnalysis, intentQuestion } from '../../shared/contract/intent';

export { CLEAR_INTENT_AT_LEAST, IntentAnalysis, intentQuestion };

export const personNames = (analysis: IntentAnalysis): string[] =>
  analysis.entities.filter((entity) => entity.type === 'person').map((entity) => entity.value);
