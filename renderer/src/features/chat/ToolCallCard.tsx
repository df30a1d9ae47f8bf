import { formatValue, toolLabel } from '../../format';
import type { TimelineItem } from './timeline';
import { toolStateLabel } from './tool-state';

type ToolCall = Extract<TimelineItem, { kind: 'tool' }>;

export function ToolCallCard({ call }: { call: ToolCall }) {
  const argEntries = Object.entries(call.args);
  return (
    <li
      className={`tool-card tool-card--${call.state}${call.ledgerState === 'unknown' ? ' tool-card--unsure' : ''}`}
      data-testid="tool-call"
      data-tool={call.tool}
      data-state={call.state}
      data-ledger-state={call.ledgerState}
      data-undone={call.isUndone ? 'true' : undefined}
    >
      <details>
        <summary>
          <span className="tool-card__name">{toolLabel(call.tool)}</span>
          <span className="tool-card__state" data-testid="tool-call-state">
            {call.isUndone ? 'Undone' : toolStateLabel(call.state, call.ledgerState)}
          </span>
        </summary>
        <div className="tool-card__body">
          {argEntries.length > 0 && (
            <dl className="tool-card__args">
              {argEntries.map(([name, value]) => (
                <div key={name}>
                  <dt>{name}</dt>
                  <dd>{formatValue(value)}</dd>
                </div>
              ))}
            </dl>
          )}
          <a
            className="tool-card__audit"
            href={`#/audit/${encodeURIComponent(call.id)}`}
            data-testid="tool-call-audit"
          >
            See it in the audit trail
          </a>
          {call.result !== undefined && call.result !== null && (
            <>
              <h4>Result</h4>
              <pre>{formatValue(call.result)}</pre>
            </>
          )}
        </div>
      </details>
      {call.error && (
        <p className="tool-card__error" role="alert">
          {call.error}
        </p>
      )}
    </li>
  );
}
