import type { Db } from './database';
import { parseStoredJson } from './json';

export type LineageStatus = 'active' | 'completed' | 'failed' | 'recovering';

/** One agent run in the delegation tree (Keep-Up §8.4), with the grant it ran under. */
export interface LineageRow {
  id: string;
  runId: string;
  parentAgentId: string | null;
  parentRunId: string | null;
  parentActionId: string | null;
  role: string;
  status: LineageStatus;
  depth: number;
  grantedTools: string[];
  createdAt: string;
  completedAt: string | null;
  usage: { inputTokens: number; outputTokens: number; cost: number };
}

interface Row {
  id: string;
  run_id: string;
  parent_agent_id: string | null;
  parent_run_id: string | null;
  parent_action_id: string | null;
  role: string;
  status: LineageStatus;
  depth: number;
  granted_tools: string;
  created_at: string;
  completed_at: string | null;
  usage_input_tokens: number;
  usage_output_tokens: number;
  usage_cost: number;
}

const toLineage = (row: Row): LineageRow => {
  const tools = parseStoredJson(row.granted_tools);
  return {
    id: row.id,
    runId: row.run_id,
    parentAgentId: row.parent_agent_id,
    parentRunId: row.parent_run_id,
    parentActionId: row.parent_action_id,
    role: row.role,
    status: row.status,
    depth: row.depth,
    grantedTools: Array.isArray(tools)
      ? tools.filter((tool): tool is string => typeof tool === 'string')
      : [],
    createdAt: row.created_at,
    completedAt: row.completed_at,
    usage: {
      inputTokens: row.usage_input_tokens,
      outputTokens: row.usage_output_tokens,
      cost: row.usage_cost,
    },
  };
};

/** The `agent_lineage` table: written when an agent run starts, closed with its usage when it ends. */
export class LineageRepo {
  private readonly insert;
  private readonly selectByRun;
  private readonly selectChildren;
  private readonly finishStmt;
  private readonly statusStmt;

  constructor(db: Db) {
    this.insert = db.prepare(
      `INSERT INTO agent_lineage (id, run_id, parent_agent_id, parent_run_id, parent_action_id, role, status,
       depth, granted_tools, created_at) VALUES (?, ?, ?, ?, ?, ?, 'active', ?, ?, ?)`,
    );
    this.selectByRun = db.prepare<[string], Row>('SELECT * FROM agent_lineage WHERE run_id = ?');
    this.selectChildren = db.prepare<[string], Row>(
      'SELECT * FROM agent_lineage WHERE parent_run_id = ? ORDER BY created_at, rowid',
    );
    this.finishStmt = db.prepare(
      `UPDATE agent_lineage SET status = ?, completed_at = ?, usage_input_tokens = ?, usage_output_tokens = ?,
       usage_cost = ? WHERE run_id = ?`,
    );
    this.statusStmt = db.prepare('UPDATE agent_lineage SET status = ? WHERE run_id = ?');
  }

  create(row: Omit<LineageRow, 'status' | 'completedAt' | 'usage'>): void {
    this.insert.run(
      row.id,
      row.runId,
      row.parentAgentId,
      row.parentRunId,
      row.parentActionId,
      row.role,
      row.depth,
      JSON.stringify(row.grantedTools),
      row.createdAt,
    );
  }

  byRun(runId: string): LineageRow | null {
    const row = this.selectByRun.get(runId);
    return row ? toLineage(row) : null;
  }

  /** The agent runs a run delegated to, oldest first. */
  children(parentRunId: string): LineageRow[] {
    return this.selectChildren.all(parentRunId).map(toLineage);
  }

  finish(runId: string, status: 'completed' | 'failed', usage: LineageRow['usage'], now: string): void {
    this.finishStmt.run(status, now, usage.inputTokens, usage.outputTokens, usage.cost, runId);
  }

  setStatus(runId: string, status: LineageStatus): void {
    this.statusStmt.run(status, runId);
  }
}
