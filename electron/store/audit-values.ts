import { redactedJson, redactNullable } from '../vault/redactor';
import type { NewAuditEntry, Settlement } from './audit-repo';
import type { AuditContent } from './audit-rows';

/** How much of a tool's input or output an entry keeps; the full result stays in the ledger (`outputRef`). */
export const AUDIT_DATA_CAP = 4_000;

/** Redacted JSON, cut at the cap: the entry keeps what a person reads, never a secret, never megabytes. */
function capped(value: unknown): { json: string | null; isTruncated: boolean } {
  if (value === undefined || value === null) return { json: null, isTruncated: false };
  const text = redactedJson(value);
  if (text.length <= AUDIT_DATA_CAP) return { json: text, isTruncated: false };
  return { json: JSON.stringify(`${text.slice(0, AUDIT_DATA_CAP)}…`), isTruncated: true };
}

const jsonOrNull = (value: unknown): string | null =>
  value === undefined || value === null ? null : capped(value).json;

/** A value as an entry would keep it (redacted, capped) and read it back: what to compare with a stored one. */
export function asStored(value: unknown): unknown {
  const json = jsonOrNull(value);
  return json === null ? null : (JSON.parse(json) as unknown);
}

/** A new entry's values, as the insert names them: redacted and capped once, whenever the row is written. */
export function entryValues(id: string, entry: NewAuditEntry, now: string) {
  const output = capped(entry.output);
  return {
    id,
    kind: entry.kind,
    actionId: entry.actionId ?? null,
    threadId: entry.threadId ?? null,
    runId: entry.runId ?? null,
    agentId: entry.agentId,
    actionType: entry.actionType,
    actionCategory: entry.actionCategory,
    risk: entry.risk ?? null,
    intent: redactNullable(entry.intent ?? null),
    reasoning: redactNullable(entry.reasoning ?? null),
    confidence: entry.confidence ?? null,
    entityType: entry.effect?.entityType ?? null,
    entityId: entry.effect?.entityId ?? null,
    entityBefore: jsonOrNull(entry.effect?.before),
    entityAfter: jsonOrNull(entry.effect?.after),
    target: redactNullable(entry.target ?? null),
    input: capped(entry.input).json,
    output: output.json,
    outputRef: entry.outputRef ?? null,
    isTruncated: output.isTruncated ? 1 : 0,
    status: entry.status,
    errorMessage: redactNullable(entry.errorMessage ?? null),
    startedAt: null as string | null,
    durationMs: entry.durationMs ?? null,
    modelUsed: entry.modelUsed ?? null,
    tokensUsed: entry.tokensUsed ?? null,
    decision: entry.decision ?? null,
    rule: entry.rule ?? null,
    reason: redactNullable(entry.reason ?? null),
    approvedBy: entry.approvedBy ?? null,
    approvedAt: entry.approvedAt ?? null,
    isReversible: entry.isReversible ? 1 : 0,
    undoNote: entry.undoNote ?? null,
    undoOf: entry.undoOf ?? null,
    now,
    updatedAt: now,
  };
}

export type EntryValues = ReturnType<typeof entryValues>;

/**
 * A call's outcome as the entry's values name it, redacted and capped. A null says "keep what the entry has"
 * for every value but the status, the truncation flag and the error, which the outcome always sets.
 */
export function settlementValues(settlement: Settlement) {
  const output = capped(settlement.output);
  const effect = settlement.effect;
  return {
    status: settlement.status,
    output: output.json,
    outputRef: settlement.outputRef ?? null,
    isTruncated: output.isTruncated ? 1 : 0,
    errorMessage: redactNullable(settlement.errorMessage ?? null),
    entityType: effect?.entityType ?? null,
    entityId: effect?.entityId ?? null,
    entityBefore: jsonOrNull(effect?.before),
    entityAfter: jsonOrNull(effect?.after),
    startedAt: settlement.startedAt ?? null,
    durationMs: settlement.durationMs ?? null,
  };
}

/** An unwritten entry's values with its call's outcome: what `settle`'s update makes of a written one. */
export function settledValues(values: EntryValues, settlement: Settlement, now: string): EntryValues {
  const settled = settlementValues(settlement);
  return {
    ...values,
    status: settled.status,
    output: settled.output ?? values.output,
    outputRef: settled.outputRef ?? values.outputRef,
    isTruncated: settled.isTruncated,
    errorMessage: settled.errorMessage,
    entityType: settled.entityType ?? values.entityType,
    entityId: settled.entityId ?? values.entityId,
    entityBefore: settled.entityBefore ?? values.entityBefore,
    entityAfter: settled.entityAfter ?? values.entityAfter,
    startedAt: settled.startedAt ?? values.startedAt,
    durationMs: settled.durationMs ?? values.durationMs,
    updatedAt: now,
  };
}

/**
 * The row an insert of `values` stores, but for its place in the table and in the chain: what its content hash
 * covers. A new entry is linked from this, without reading it back (a test holds it equal to the stored row).
 */
export function storedContent(values: EntryValues): AuditContent {
  return {
    id: values.id,
    kind: values.kind,
    action_id: values.actionId,
    thread_id: values.threadId,
    run_id: values.runId,
    agent_id: values.agentId,
    action_type: values.actionType,
    action_category: values.actionCategory,
    risk: values.risk,
    intent: values.intent,
    reasoning: values.reasoning,
    confidence: values.confidence,
    entity_type: values.entityType,
    entity_id: values.entityId,
    entity_before: values.entityBefore,
    entity_after: values.entityAfter,
    target: values.target,
    input_json: values.input,
    output_json: values.output,
    output_ref: values.outputRef,
    is_output_truncated: values.isTruncated,
    status: values.status,
    error_message: values.errorMessage,
    started_at: values.startedAt,
    duration_ms: values.durationMs,
    model_used: values.modelUsed,
    tokens_used: values.tokensUsed,
    decision: values.decision,
    rule: values.rule,
    reason: values.reason,
    approved_by: values.approvedBy,
    approved_at: values.approvedAt,
    is_reversible: values.isReversible,
    undo_note: values.undoNote,
    undo_of: values.undoOf,
    undone_by: null,
    scrubbed_at: null,
    created_at: values.now,
    updated_at: values.updatedAt,
  };
}

/** The columns of `audit_entries` with a numeric type; every other one is text. */
const NUMERIC_COLUMNS: ReadonlySet<string> = new Set([
  'confidence',
  'is_output_truncated',
  'duration_ms',
  'tokens_used',
  'is_reversible',
]);

/**
 * Whether SQLite keeps every value as it is given: text in a text column, a number in a numeric one. A value of
 * another type (a number a tool gave as an entity id) would be converted on the way in, and the row read back
 * would no longer hash as the values do.
 */
export function isStoredAsGiven(content: AuditContent): boolean {
  for (const [column, value] of Object.entries(content)) {
    if (value !== null && typeof value !== (NUMERIC_COLUMNS.has(column) ? 'number' : 'string')) return false;
  }
  return true;
}
