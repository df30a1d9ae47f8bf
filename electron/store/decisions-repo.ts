import type { DecisionRecord } from '../../shared/contract';
import { redactNullable } from '../vault/redactor';
import type { Db } from './database';

/** How much of what was asked a decision shows: enough to know the request again, never a whole paste. */
const INTENT_CAP = 300;

export interface NewDecision {
  runId: string | null;
  agentId: string;
  decision: string;
  outcome: string;
  /** Why a request with no run was refused; a run's own summary is read from its row. */
  summary?: string | null;
  errorCode?: string | null;
  durationMs?: number | null;
  model?: string | null;
  tokensUsed?: number | null;
  auditEntryId?: string | null;
}

interface DecisionRow {
  seq: number;
  run_id: string | null;
  thread_id: string | null;
  agent_id: string;
  decision: string;
  outcome: string;
  intent: string | null;
  summary: string | null;
  error_code: string | null;
  duration_ms: number | null;
  model: string | null;
  tokens_used: number | null;
  audit_entry_id: string | null;
  created_at: string;
}

const capped = (text: string | null): string | null =>
  text !== null && text.length > INTENT_CAP ? `${text.slice(0, INTENT_CAP - 1)}…` : text;

const toDecision = (row: DecisionRow): DecisionRecord => ({
  id: String(row.seq),
  seq: row.seq,
  runId: row.run_id,
  threadId: row.thread_id,
  agentId: row.agent_id,
  decision: row.decision,
  outcome: row.outcome,
  intent: capped(row.intent),
  summary: capped(row.summary),
  errorCode: row.error_code,
  durationMs: row.duration_ms,
  model: row.model,
  tokensUsed: row.tokens_used,
  auditEntryId: row.audit_entry_id,
  createdAt: row.created_at,
});

/** Spec 002's DecisionLog: written with the run's ending, or alone for a request refused before it started. */
export class DecisionsRepo {
  private readonly insert;
  private readonly statements = new Map<string, ReturnType<Db['prepare']>>();

  constructor(private readonly db: Db) {
    this.insert = db.prepare(
      `INSERT INTO decisions (run_id, agent_id, decision, outcome, summary, error_code, duration_ms, model,
         tokens_used, audit_entry_id, created_at)
       VALUES (@runId, @agentId, @decision, @outcome, @summary, @errorCode, @durationMs, @model, @tokensUsed,
         @auditEntryId, @now)`,
    );
  }

  record(decision: NewDecision, now: string): void {
    this.insert.run({
      runId: decision.runId,
      agentId: decision.agentId,
      decision: decision.decision,
      outcome: decision.outcome,
      summary: capped(redactNullable(decision.summary ?? null)),
      errorCode: decision.errorCode ?? null,
      durationMs: decision.durationMs ?? null,
      model: decision.model ?? null,
      tokensUsed: decision.tokensUsed ?? null,
      auditEntryId: decision.auditEntryId ?? null,
      now,
    });
  }

  /**
   * Newest first, a page at a time, by run or conversation. What was asked, the answer and the conversation
   * come from the run row; a conversation's runs are found through its index, then each run's decision.
   */
  list(filter: { runId?: string; threadId?: string; cursor?: string }, limit: number): DecisionRecord[] {
    const conditions: string[] = [];
    if (filter.runId !== undefined) conditions.push('d.run_id = @runId');
    if (filter.threadId !== undefined)
      conditions.push('d.run_id IN (SELECT id FROM runs WHERE thread_id = @threadId)');
    if (filter.cursor !== undefined) conditions.push('d.seq < @cursor');
    const where = conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : '';
    const sql = `SELECT d.*, r.thread_id AS thread_id, r.prompt AS intent, COALESCE(d.summary, r.summary) AS summary
       FROM decisions d LEFT JOIN runs r ON r.id = d.run_id ${where} ORDER BY d.seq DESC LIMIT @limit`;
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    const rows = statement.all({
      ...filter,
      ...(filter.cursor !== undefined && { cursor: Number(filter.cursor) }),
      limit,
    }) as DecisionRow[];
    return rows.map(toDecision);
  }
}
