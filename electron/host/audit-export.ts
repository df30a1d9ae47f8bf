import type { AuditEntry } from '../../shared/contract';
import { redactSecrets } from '../vault/redactor';

const COLUMNS: readonly [string, (entry: AuditEntry) => unknown][] = [
  ['id', (e) => e.id],
  ['created_at', (e) => e.createdAt],
  ['kind', (e) => e.kind],
  ['thread_id', (e) => e.threadId],
  ['run_id', (e) => e.runId],
  ['agent_id', (e) => e.agentId],
  ['action_type', (e) => e.actionType],
  ['action_category', (e) => e.actionCategory],
  ['risk', (e) => e.risk],
  ['status', (e) => e.status],
  ['target', (e) => e.target],
  ['intent', (e) => e.intent],
  ['reasoning', (e) => e.reasoning],
  ['confidence', (e) => e.confidence],
  ['decision', (e) => e.authority.decision],
  ['rule', (e) => e.authority.rule],
  ['approved_by', (e) => e.authority.approvedBy],
  ['approved_at', (e) => e.authority.approvedAt],
  ['entity_type', (e) => e.entityType],
  ['entity_id', (e) => e.entityId],
  ['duration_ms', (e) => e.durationMs],
  ['model_used', (e) => e.modelUsed],
  ['tokens_used', (e) => e.tokensUsed],
  ['error_message', (e) => e.errorMessage],
  ['input', (e) => e.input],
  ['output', (e) => e.output],
  ['assumptions', (e) => e.assumptions],
  ['undo_of', (e) => e.undo.undoOf],
  ['undone_by', (e) => e.undo.undoneBy],
  // Read from the approvals, not stored: last, so the columns before them stay where earlier exports had them.
  ['is_turned_down', (e) => e.isTurnedDown],
  ['is_expired', (e) => e.isExpired],
];

export const CSV_HEADER = COLUMNS.map(([name]) => name).join(',');

/**
 * RFC 4180 cells; a cell that a spreadsheet would run as a formula (=, +, -, @) is prefixed with a quote, so
 * an export opened in a spreadsheet cannot run what a mail or a model wrote.
 */
function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text = typeof value === 'string' ? value : JSON.stringify(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Each entry as one CSV line; everything passes the redactor once more on the way out. */
export function toCsvLines(entries: readonly AuditEntry[]): string[] {
  return entries.map((entry) => redactSecrets(COLUMNS.map(([, read]) => cell(read(entry))).join(',')));
}
