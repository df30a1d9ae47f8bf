import { hash } from 'node:crypto';
import type { AuditApprover, AuditAssumption, AuditEntry } from '../../shared/contract';
import { parseStoredJson } from './json';

/** An `audit_entries` row as SQLite returns it. */
export interface AuditRow {
  seq: number;
  id: string;
  kind: AuditEntry['kind'];
  action_id: string | null;
  thread_id: string | null;
  run_id: string | null;
  agent_id: string;
  action_type: string;
  action_category: string;
  risk: string | null;
  intent: string | null;
  reasoning: string | null;
  confidence: number | null;
  entity_type: string | null;
  entity_id: string | null;
  entity_before: string | null;
  entity_after: string | null;
  target: string | null;
  input_json: string | null;
  output_json: string | null;
  output_ref: string | null;
  is_output_truncated: number;
  status: AuditEntry['status'];
  error_message: string | null;
  started_at: string | null;
  duration_ms: number | null;
  model_used: string | null;
  tokens_used: number | null;
  decision: string | null;
  rule: string | null;
  reason: string | null;
  approved_by: AuditApprover | null;
  approved_at: string | null;
  is_reversible: number;
  undo_note: string | null;
  undo_of: string | null;
  undone_by: string | null;
  scrubbed_at: string | null;
  created_at: string;
  updated_at: string;
  chain_seq: number | null;
  /** Whether the viewer's filter indexes have the entry yet (migration 17): bookkeeping, not content. */
  is_listed: number;
}

/** What an entry's content hash covers: its row but for its place in the table and the chain, and `is_listed`. */
export type AuditContent = Omit<AuditRow, 'seq' | 'chain_seq' | 'is_listed'>;

export interface AssumptionRow {
  id: string;
  entry_id: string;
  position: number;
  statement: string;
  category: AuditAssumption['category'];
  evidence_json: string;
  confidence: number | null;
  verified: number | null;
  verified_at: string | null;
  correction: string | null;
}

export const toAssumption = (row: AssumptionRow): AuditAssumption => {
  const evidence = parseStoredJson(row.evidence_json);
  return {
    id: row.id,
    statement: row.statement,
    category: row.category,
    evidence: Array.isArray(evidence) ? evidence.map(String) : [],
    confidence: row.confidence,
    verified: row.verified === null ? null : row.verified === 1,
    verifiedAt: row.verified_at,
    correction: row.correction,
  };
};

const json = (text: string | null): unknown => (text === null ? null : parseStoredJson(text));

/** An entry can be undone now: its tool can undo it, it is done, and it was not undone yet. */
export const isUndoable = (row: Pick<AuditRow, 'is_reversible' | 'status' | 'undone_by'>): boolean =>
  row.is_reversible === 1 && row.status === 'completed' && row.undone_by === null;

export function toEntry(row: AuditRow, assumptions: readonly AssumptionRow[]): AuditEntry {
  return {
    id: row.id,
    seq: row.seq,
    kind: row.kind,
    actionId: row.action_id,
    threadId: row.thread_id,
    runId: row.run_id,
    agentId: row.agent_id,
    actionType: row.action_type,
    actionCategory: row.action_category,
    risk: row.risk,
    intent: row.intent,
    reasoning: row.reasoning,
    confidence: row.confidence,
    assumptions: assumptions.map(toAssumption),
    entityType: row.entity_type,
    entityId: row.entity_id,
    entityBefore: json(row.entity_before),
    entityAfter: json(row.entity_after),
    target: row.target,
    input: json(row.input_json),
    output: json(row.output_json),
    outputRef: row.output_ref,
    isOutputTruncated: row.is_output_truncated === 1,
    status: row.status,
    errorMessage: row.error_message,
    durationMs: row.duration_ms,
    modelUsed: row.model_used,
    tokensUsed: row.tokens_used,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    authority: {
      decision: row.decision,
      rule: row.rule,
      reason: row.reason,
      approvedBy: row.approved_by,
      approvedAt: row.approved_at,
    },
    undo: {
      isReversible: isUndoable(row),
      whyNot: row.undo_note,
      undoOf: row.undo_of,
      undoneBy: row.undone_by,
    },
    scrubbedAt: row.scrubbed_at,
  };
}

/**
 * What an entry's hash covers: every column but its place in the table (`seq`), its pointer into the chain
 * (`chain_seq`) and whether the viewer's indexes have it yet (`is_listed`), then its assumptions in order. A fixed order of values, so the same content always hashes
 * the same, and any edit to any of them (a status, a word of reasoning, a verification) changes the hash.
 */
export function contentHash(
  row: AuditContent & Partial<Pick<AuditRow, 'seq' | 'chain_seq' | 'is_listed'>>,
  assumptions: readonly AssumptionRow[],
): string {
  const { seq: _seq, chain_seq: _chainSeq, is_listed: _isListed, ...content } = row;
  const values = Object.keys(content)
    .sort()
    .map((key) => content[key as keyof typeof content]);
  const assumed = assumptions.map((a) => [
    a.id,
    a.position,
    a.statement,
    a.category,
    a.evidence_json,
    a.confidence,
    a.verified,
    a.verified_at,
    a.correction,
  ]);
  return sha256(JSON.stringify([values, assumed]));
}

export const GENESIS_HASH = '0'.repeat(64);

/** A link's hash covers the previous link's hash, the entry it is about, that entry's content hash and when. */
export function linkHash(prevHash: string, entryId: string, content: string, at: string): string {
  return sha256(`${prevHash}\n${entryId}\n${content}\n${at}`);
}

/** One-shot `hash` rather than a Hash object: half the time for the short texts an entry hashes. */
function sha256(text: string): string {
  return hash('sha256', text, 'hex');
}
