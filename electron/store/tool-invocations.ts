import type { ToolInvocation } from '../../shared/contract';
import type { AuditInbox } from './audit-inbox';
import type { Db } from './database';
import { parseStoredJson } from './json';

interface InvocationRow {
  sequence: number;
  id: string;
  kind: ToolInvocation['kind'];
  action_id: string | null;
  run_id: string | null;
  thread_id: string | null;
  agent_id: string;
  tool: string;
  category: string;
  parameters_json: string | null;
  result_json: string | null;
  success: number | null;
  outcome: string;
  error_message: string | null;
  started_at: string | null;
  duration_ms: number | null;
  model_used: string | null;
  tokens_used: number | null;
  created_at: string;
}

const json = (text: string | null): unknown => (text === null ? null : parseStoredJson(text));

const toInvocation = (row: InvocationRow): ToolInvocation => ({
  id: row.id,
  sequence: row.sequence,
  kind: row.kind,
  actionId: row.action_id,
  runId: row.run_id,
  threadId: row.thread_id,
  agentId: row.agent_id,
  tool: row.tool,
  category: row.category,
  parameters: json(row.parameters_json),
  result: json(row.result_json),
  success: row.success === null ? null : row.success === 1,
  outcome: row.outcome,
  errorMessage: row.error_message,
  startedAt: row.started_at,
  durationMs: row.duration_ms,
  modelUsed: row.model_used,
  tokensUsed: row.tokens_used,
  createdAt: row.created_at,
});

/**
 * Spec 002's ToolInvocationLog, read through the `tool_invocations` view over the calls' audit entries, once
 * `inbox` has filed the entries a step held.
 */
export function listToolInvocations(
  db: Db,
  inbox: AuditInbox,
  filter: { runId?: string; threadId?: string; tool?: string; cursor?: string },
  limit: number,
): ToolInvocation[] {
  inbox.file();
  const conditions: string[] = [];
  if (filter.runId !== undefined) conditions.push('run_id = @runId');
  if (filter.threadId !== undefined) conditions.push('thread_id = @threadId');
  if (filter.tool !== undefined) conditions.push('tool = @tool');
  if (filter.cursor !== undefined) conditions.push('sequence < @cursor');
  const where = conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : '';
  return db
    .prepare<Record<string, unknown>, InvocationRow>(
      `SELECT * FROM tool_invocations ${where} ORDER BY sequence DESC LIMIT @limit`,
    )
    .all({ ...filter, ...(filter.cursor !== undefined && { cursor: Number(filter.cursor) }), limit })
    .map(toInvocation);
}
