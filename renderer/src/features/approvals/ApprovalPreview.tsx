import type { Approval } from '../../../../shared/contract';
import { recipientWords } from '../../../../shared/target-words';
import { fieldsBeyondTitle } from './approvals-model';

/**
 * What the call would do, as the host describes it, below the card's title (the preview's own): labelled
 * fields the title does not already say, who it reaches, a body, before → after. Nothing when that is all.
 */
export function ApprovalPreview({ preview }: { preview: Approval['preview'] }) {
  const fields = fieldsBeyondTitle(preview);
  const reach = preview.reach ?? [];
  const changes = preview.changes ?? [];
  const hasBody = preview.body !== undefined && preview.body !== '';
  if (fields.length === 0 && reach.length === 0 && !hasBody && changes.length === 0) return null;
  return (
    <div className="approval-preview" data-testid="approval-preview">
      {fields.length > 0 && (
        <dl className="approval-preview__fields">
          {fields.map((field, index) => (
            <div key={`${field.label}-${index}`}>
              <dt>{field.label}</dt>
              <dd>{field.value}</dd>
            </div>
          ))}
        </dl>
      )}
      {reach.length > 0 && (
        <div className="approval-reach" data-testid="approval-reach">
          <p className="approval-reach__title">Who this reaches ({reach.length})</p>
          <ul>
            {reach.map((recipient) => (
              <li key={recipient.address}>
                {/* A Slack channel or person Deputy has no name for reads as what it is ("#general in Slack"). */}
                <span className="approval-reach__address">{recipientWords(recipient)}</span>
                <span className="approval-reach__role"> · {recipient.role}</span>
              </li>
            ))}
          </ul>
        </div>
      )}
      {hasBody && (
        <pre className="approval-preview__body" data-testid="approval-body">
          {preview.body}
        </pre>
      )}
      {changes.length > 0 && (
        <table className="approval-preview__changes">
          <caption className="visually-hidden">Changes</caption>
          <thead>
            <tr>
              <th scope="col">Field</th>
              <th scope="col">Before</th>
              <td aria-hidden="true" />
              <th scope="col">After</th>
            </tr>
          </thead>
          <tbody>
            {changes.map((change, index) => (
              <tr key={`${change.label}-${index}`}>
                <th scope="row">{change.label}</th>
                <td className="approval-preview__before">{change.before || '—'}</td>
                <td aria-hidden="true">→</td>
                <td className="approval-preview__after">{change.after || '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

/**
 * Where the call's content came from, when something Deputy read could have steered it ("this link appears only
 * in a Slack message from Bob in #general"). Shown first and never folded away while the card waits: it is why
 * the card is here. `isFolded` once there is nothing left to decide (a cancelled call): kept, not pressed on the
 * person.
 */
export function ApprovalOrigins({
  origins,
  isFolded = false,
}: {
  origins: readonly string[] | undefined;
  isFolded?: boolean;
}) {
  if (!origins || origins.length === 0) return null;
  const list = (
    <ul>
      {origins.map((origin) => (
        <li key={origin}>{origin}</li>
      ))}
    </ul>
  );
  if (isFolded)
    return (
      <details className="approval-why" data-testid="approval-origins" data-folded="true">
        <summary>Where this came from</summary>
        {list}
      </details>
    );
  return (
    <section className="approval-origins" data-testid="approval-origins" aria-label="Where this came from">
      <p className="approval-origins__title">Where this came from</p>
      {list}
    </section>
  );
}

/** The model's own account of the call, folded away: what it understood, why, how sure, what it assumed. */
export function ApprovalWhy({ approval }: { approval: Approval }) {
  const { intent, reasoning, confidence, assumptions } = approval;
  const hasAny = intent || reasoning || confidence !== null || assumptions.length > 0;
  if (!hasAny) return null;
  return (
    <details className="approval-why" data-testid="approval-why">
      <summary>Why</summary>
      <dl>
        {intent && (
          <div>
            <dt>Intent</dt>
            <dd>{intent}</dd>
          </div>
        )}
        {reasoning && (
          <div>
            <dt>Reasoning</dt>
            <dd>{reasoning}</dd>
          </div>
        )}
        {confidence !== null && (
          <div>
            <dt>Confidence</dt>
            <dd>{Math.round(confidence * 100)}%</dd>
          </div>
        )}
        {assumptions.length > 0 && (
          <div>
            <dt>Assumptions</dt>
            <dd>
              <ul>
                {assumptions.map((assumption, index) => (
                  <li key={index}>{assumption}</li>
                ))}
              </ul>
            </dd>
          </div>
        )}
      </dl>
    </details>
  );
}
