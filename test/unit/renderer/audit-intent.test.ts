import { describe, expect, it } from 'vitest';
import { intentOf } from '../../../renderer/src/features/audit/IntentAnalysisSection';
import type { AuditEntry } from '../../../shared/contract';

const entry = (kind: AuditEntry['kind'], input: unknown): AuditEntry =>
  ({ kind, input }) as unknown as AuditEntry;

const analysis = {
  intent: 'add_task',
  confidence: 0.92,
  entities: [],
  impliedNeeds: [],
  clarificationNeeded: false,
  clarificationQuestions: [],
  assumptions: [],
};

describe('the intent shown in the audit detail', () => {
  it('is read from a run decision entry, stated or not', () => {
    const stated = { stated: true, analysis, source: 'state_intent', turn: 1, question: null };
    expect(intentOf(entry('decision', { decision: 'RESPOND_ONLY', intent: stated }))).toEqual(stated);
    expect(intentOf(entry('decision', { intent: { stated: false, turn: 1 } }))).toEqual({
      stated: false,
      turn: 1,
    });
  });

  it('is absent from tool calls, from decisions written before intents were kept, and from malformed input', () => {
    expect(intentOf(entry('tool_call', { intent: { stated: false, turn: 1 } }))).toBeNull();
    expect(intentOf(entry('decision', { decision: 'REFUSE', outcome: 'REFUSAL:OUT_OF_SCOPE' }))).toBeNull();
    expect(intentOf(entry('decision', { intent: { stated: true } }))).toBeNull();
    expect(intentOf(entry('decision', null))).toBeNull();
  });
});
