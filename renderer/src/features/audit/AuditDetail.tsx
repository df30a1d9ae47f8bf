import { useEffect } from 'react';
import { targetWords } from '../../../../shared/target-words';
import { isFocusLost } from '../../focus';
import { formatValue } from '../../format';
import { useAudit } from '../../stores';
import { AssumptionItem } from './AssumptionItem';
import {
  approverWords,
  authorityWords,
  hasWhy,
  NO_WHY,
  outputOf,
  riskWordsOf,
  statusOf,
  timeWords,
  whatWords,
} from './audit-words';
import { EffectDiff } from './EffectDiff';
import { IntentAnalysisSection } from './IntentAnalysisSection';
import { UndoBar } from './UndoBar';
import { useAgentLabel } from '../agents/agent-names';

const percent = (value: number | null): string => (value === null ? '—' : `${Math.round(value * 100)}%`);

/** One entry in full: why, under whose authority, what it changed, its data, timings, and what to do about it. */
export function AuditDetail() {
  const detail = useAudit((state) => state.detail);
  const error = useAudit((state) => state.detailError);
  const select = useAudit((state) => state.select);
  const setFilter = useAudit((state) => state.setFilter);
  const agentLabel = useAgentLabel();
  const verify = useAudit((state) => state.verify);
  const verdictNotice = useAudit((state) => state.verdictNotice);
  const shownId = detail?.entry.id;
  useEffect(() => {
    if (!shownId) return;
    const title = document.getElementById('audit-detail-title');
    // Opened from elsewhere (the chat's "See it in the audit trail", a link to #/audit/<id>) or by a link that went
    // with the entry it was in, nothing has the keyboard: it goes on from the entry, not from the top of the page.
    if (isFocusLost()) title?.focus({ preventScroll: true });
    // Stacked on a narrow window, the detail is below the table: bring it into view when an entry opens.
    if (window.matchMedia('(max-width: 900px)').matches) title?.scrollIntoView({ block: 'start' });
  }, [shownId]);
  if (error) return <p role="alert">{error}</p>;
  if (!detail) return <p className="audit-muted">Opening the entry…</p>;
  const { entry, related } = detail;
  const authority = authorityWords(entry);
  const status = statusOf(entry);
  const risk = riskWordsOf(entry);
  return (
    <article className="audit-detail" aria-labelledby="audit-detail-title" data-testid="audit-detail">
      <header className="audit-detail__header">
        <h2 id="audit-detail-title" tabIndex={-1}>
          {whatWords(entry, agentLabel)}
        </h2>
        <span className={`audit-status audit-status--${status.tone}`} data-testid="audit-detail-status">
          {status.words}
        </span>
      </header>
      <UndoBar entry={entry} related={related} />
      {entry.scrubbedAt && (
        <p className="audit-muted">Its conversation was deleted: what was done is kept, its words are not.</p>
      )}
      <section aria-labelledby="audit-why">
        <h3 id="audit-why">Why</h3>
        {hasWhy(entry) ? (
          <dl className="audit-facts">
            <dt>Intent</dt>
            <dd>{entry.intent ?? '—'}</dd>
            <dt>Reasoning</dt>
            <dd>{entry.reasoning ?? '—'}</dd>
            <dt>Confidence</dt>
            <dd>{percent(entry.confidence)}</dd>
            <dt>To whom or where</dt>
            <dd>{entry.target ? targetWords(entry.target) : '—'}</dd>
          </dl>
        ) : (
          <p className="audit-muted" data-testid="audit-no-why">
            {NO_WHY}
          </p>
        )}
      </section>
      <IntentAnalysisSection entry={entry} />
      <section aria-labelledby="audit-authority">
        <h3 id="audit-authority">Authority</h3>
        <dl className="audit-facts">
          <dt>Decision</dt>
          <dd>{authority.decision}</dd>
          {risk && (
            <>
              <dt>Risk</dt>
              <dd data-testid="audit-detail-risk">{risk}</dd>
            </>
          )}
          <dt>{authority.ruleLabel}</dt>
          <dd data-testid="audit-detail-rule">{authority.rule}</dd>
          {authority.reason !== undefined && (
            <>
              <dt>Reason</dt>
              <dd data-testid="audit-detail-reason">{authority.reason}</dd>
            </>
          )}
          <dt>Let it happen</dt>
          <dd>
            {approverWords(entry)}
            {entry.authority.approvedAt && `, ${timeWords(entry.authority.approvedAt)}`}
          </dd>
        </dl>
      </section>
      {entry.assumptions.length > 0 && (
        <section aria-labelledby="audit-assumptions">
          <h3 id="audit-assumptions">Assumptions</h3>
          <ul className="audit-assumptions">
            {entry.assumptions.map((assumption) => (
              <AssumptionItem
                key={assumption.id}
                assumption={assumption}
                canVerify={entry.scrubbedAt === null}
                notice={verdictNotice?.assumptionId === assumption.id ? verdictNotice : null}
                onVerify={(verdict) => void verify(assumption.id, verdict)}
              />
            ))}
          </ul>
        </section>
      )}
      <section aria-labelledby="audit-effect">
        <h3 id="audit-effect">Before and after</h3>
        <EffectDiff entry={entry} />
      </section>
      <section aria-labelledby="audit-data">
        <h3 id="audit-data">Input and output</h3>
        <h4>Input</h4>
        <pre>{formatValue(entry.input ?? '—')}</pre>
        <h4>Output{entry.isOutputTruncated && ' (shortened; the full result is kept with the action)'}</h4>
        <pre data-testid="audit-detail-output">{formatValue(outputOf(entry))}</pre>
      </section>
      <section aria-labelledby="audit-timings">
        <h3 id="audit-timings">Timings</h3>
        <dl className="audit-facts">
          <dt>When</dt>
          <dd>{timeWords(entry.createdAt)}</dd>
          <dt>Took</dt>
          <dd>{entry.durationMs === null ? '—' : `${entry.durationMs} ms`}</dd>
          <dt>Model</dt>
          <dd>{entry.modelUsed ?? '—'}</dd>
          <dt>{entry.kind === 'decision' ? 'Tokens (whole run)' : 'Tokens (the turn that asked)'}</dt>
          <dd>{entry.tokensUsed ?? '—'}</dd>
          <dt>Agent</dt>
          <dd>{agentLabel(entry.agentId) ?? entry.agentId}</dd>
        </dl>
      </section>
      <section aria-labelledby="audit-run">
        <h3 id="audit-run">The run’s other entries</h3>
        {related.length === 0 ? (
          <p className="audit-muted">None.</p>
        ) : (
          <ul className="audit-related">
            {related.map((other) => (
              <li key={other.id}>
                <button type="button" className="link-button" onClick={() => void select(other.id)}>
                  {whatWords(other, agentLabel)} — {statusOf(other).words}
                </button>
              </li>
            ))}
          </ul>
        )}
        <div className="audit-detail__links">
          {entry.threadId && !entry.scrubbedAt && (
            <a
              href={`#/thread/${encodeURIComponent(entry.threadId)}`}
              data-testid="audit-open-chat"
              onClick={(event) => {
                // In the desktop app the viewer has a window of its own: the conversation opens in Deputy's.
                const shell = window.deputyShell;
                if (!shell || !entry.threadId) return;
                event.preventDefault();
                void shell.openThread(entry.threadId);
              }}
            >
              Open the conversation
            </a>
          )}
          {entry.threadId && (
            <button
              type="button"
              className="link-button"
              onClick={() => void setFilter('threadId', entry.threadId ?? '')}
            >
              Only this conversation’s entries
            </button>
          )}
        </div>
      </section>
    </article>
  );
}
