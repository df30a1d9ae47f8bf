import type { ActionState } from '../../../../shared/contract';
import { formatValue, toolLabel } from '../../format';
import type { TimelineItem } from './timeline';

type ToolCall = Extract<TimelineItem, { kind: 'tool' }>;

const STATE_LABELS: Record<ActionState, string> = {
  planned: 'Planned',
  awaiting_confirmation: 'Waiting for approval',
  executing: 'Running',
  completed: 'Done',
  failed: 'Failed',
  rejected: 'Rejected',
};

export function ToolCallCard({ call }: { call: ToolCall }) {
  const argEntries = Object.entries(call.args);
  return (
    <li
      className={`tool-card tool-card--${call.state}`}
      data-testid="tool-call"
      data-tool={call.tool}
      data-state={call.state}
    >
      <details>
        <summary>
          <span className="tool-card__name">{toolLabel(call.tool)}</span>
          <span className="tool-card__state" data-testid="tool-call-state">
            {STATE_LABELS[call.state] ?? call.state}
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
