import { RunIntent, type AuditEntry } from '../../../../shared/contract';

const ENTITY_WORDS: Record<string, string> = {
  person: 'Person',
  datetime: 'Date or time',
  place: 'Place',
  organisation: 'Organisation',
  other: 'Other',
};

/** The run's intent analysis, as a run's decision entry carries it (`input.intent`), or null when there is none. */
export function intentOf(entry: AuditEntry): RunIntent | null {
  if (entry.kind !== 'decision' || typeof entry.input !== 'object' || entry.input === null) return null;
  const parsed = RunIntent.safeParse((entry.input as { intent?: unknown }).intent);
  return parsed.success ? parsed.data : null;
}

/** What Deputy understood the request to be (spec 004's intent analysis), on a run's decision entry. */
export function IntentAnalysisSection({ entry }: { entry: AuditEntry }) {
  const intent = intentOf(entry);
  if (!intent) return null;
  return (
    <section aria-labelledby="audit-intent" data-testid="audit-intent">
      <h3 id="audit-intent">What Deputy understood</h3>
      {intent.stated ? (
        <dl className="audit-facts">
          <dt>Request</dt>
          <dd>{intent.analysis.intent}</dd>
          <dt>How sure</dt>
          <dd>{Math.round(intent.analysis.confidence * 100)}%</dd>
          <dt>It names</dt>
          <dd>
            {intent.analysis.entities.length === 0
              ? '—'
              : intent.analysis.entities
                  .map((entity) => `${ENTITY_WORDS[entity.type] ?? entity.type}: ${entity.value}`)
                  .join('; ')}
          </dd>
          <dt>Also needed</dt>
          <dd>{intent.analysis.impliedNeeds.join('; ') || '—'}</dd>
          <dt>Asked you</dt>
          <dd data-testid="audit-intent-question">
            {intent.question ??
              (intent.analysis.clarificationNeeded
                ? intent.analysis.clarificationQuestions.join(' ') || 'Yes'
                : 'No: it was clear enough to act on')}
          </dd>
        </dl>
      ) : (
        <p className="audit-muted">The model did not say how it understood this request.</p>
      )}
    </section>
  );
}
