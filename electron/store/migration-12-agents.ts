/**
 * Keep-Up §8.3–8.4. `agent_lineage` has one row per agent run: who its parent is (an agent's row, or a chat
 * run), its depth and the tools it was granted (so a resumed child gets exactly the same, never more), and its
 * usage once it ends. `artifacts` keeps what agents made, registered with the run that asked for them.
 * Checkpoints are forgotten when a run ends, so an artifact's checkpoint is a pointer that may go null.
 */
export const AGENTS_SQL = `
  CREATE TABLE agent_lineage (
    id TEXT PRIMARY KEY,
    run_id TEXT NOT NULL UNIQUE REFERENCES runs (id) ON DELETE CASCADE,
    parent_agent_id TEXT REFERENCES agent_lineage (id) ON DELETE CASCADE,
    parent_run_id TEXT REFERENCES runs (id) ON DELETE CASCADE,
    parent_action_id TEXT,
    role TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('active','completed','failed','recovering')),
    depth INTEGER NOT NULL CHECK (depth >= 1),
    granted_tools TEXT NOT NULL,
    created_at TEXT NOT NULL,
    completed_at TEXT,
    usage_input_tokens INTEGER NOT NULL DEFAULT 0,
    usage_output_tokens INTEGER NOT NULL DEFAULT 0,
    usage_cost REAL NOT NULL DEFAULT 0
  );
  CREATE INDEX agent_lineage_by_parent_run ON agent_lineage (parent_run_id);
  CREATE INDEX agent_lineage_by_parent ON agent_lineage (parent_agent_id);

  CREATE TABLE artifacts (
    id TEXT PRIMARY KEY,
    run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    agent_id TEXT NOT NULL,
    source_run_id TEXT REFERENCES runs (id) ON DELETE SET NULL,
    checkpoint_id TEXT REFERENCES checkpoints (id) ON DELETE SET NULL,
    artifact_type TEXT NOT NULL CHECK (artifact_type IN ('file','plan','report','draft','diagram')),
    path TEXT,
    content TEXT,
    metadata TEXT NOT NULL,
    created_at TEXT NOT NULL
  );
  CREATE INDEX idx_artifact_run ON artifacts (run_id, created_at);
  CREATE INDEX idx_artifact_agent ON artifacts (agent_id);
`;
