import type { AuditEntry } from '../../../../shared/contract';
import { diffRows } from './effect-words';

/** The thing an action changed, before and after, field by field; changed fields stand out. */
export function EffectDiff({ entry }: { entry: AuditEntry }) {
  if (entry.entityBefore == null && entry.entityAfter == null)
    return <p className="audit-muted">No record of a change.</p>;
  const rows = diffRows(entry.entityBefore, entry.entityAfter);
  if (rows.length === 0) return <p className="audit-muted">No change a person would see.</p>;
  return (
    <table className="audit-diff" data-testid="audit-diff">
      <caption className="visually-hidden">What changed in the {entry.entityType ?? 'item'}</caption>
      <thead>
        <tr>
          <th scope="col">Field</th>
          <th scope="col">Before</th>
          <th scope="col">After</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.field} className={row.isChanged ? 'audit-diff__changed' : undefined}>
            <th scope="row">
              {row.label}
              {row.isChanged && <span className="visually-hidden"> (changed)</span>}
            </th>
            <td>{row.before}</td>
            <td>{row.after}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
