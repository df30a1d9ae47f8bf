/**
 * Migration 9 (released: never edit; a change is a new migration). Spec 002's two logs.
 *
 * - `decisions` (DecisionLog): one row per request Deputy answered or refused: its AgentDecision, its outcome
 *   category, how long it took, the model and its tokens. A run's row is written in the transaction that ends
 *   the run (beside its chained `decision` audit entry, which it names); what was asked, the answer and the
 *   conversation are read from the run row, not copied (so they also go with a deleted conversation). A request
 *   refused before any run started (a rate limit, an unknown conversation, input that did not parse) has only
 *   this row, with its reason in `summary`: about a hundred bytes, where an audit entry with its indexes,
 *   full-text rows and chain link would be many times that for every refusal of a flood.
 * - `tool_invocations` (ToolInvocationLog): a view over the audit entries of calls and undos. Every field the
 *   log names (tool, parameters, result, success, outcome category, sequence, timing, model, tokens) is already a
 *   column of the entry, written in the same transaction as the ledger transition it describes. A second table
 *   would cost every call more writes and keep a copy outside the hash chain that could disagree with it.
 */
export const DECISION_LOGS_SQL = `
  CREATE TABLE decisions (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    run_id TEXT,
    agent_id TEXT NOT NULL,
    decision TEXT NOT NULL,
    outcome TEXT NOT NULL,
    summary TEXT,
    error_code TEXT,
    duration_ms INTEGER,
    model TEXT,
    tokens_used INTEGER,
    audit_entry_id TEXT,
    created_at TEXT NOT NULL
  );
  CREATE INDEX decisions_by_run ON decisions (run_id);

  CREATE VIEW tool_invocations AS
  SELECT
    e.seq AS sequence,
    e.id AS id,
    e.kind AS kind,
    e.action_id AS action_id,
    e.run_id AS run_id,
    e.thread_id AS thread_id,
    e.agent_id AS agent_id,
    e.action_type AS tool,
    e.action_category AS category,
    e.input_json AS parameters_json,
    e.output_json AS result_json,
    e.status AS status,
    CASE e.status WHEN 'failed' THEN 0 WHEN 'pending' THEN NULL ELSE 1 END AS success,
    CASE
      WHEN e.status = 'pending' AND e.decision = 'require_approval' THEN 'PENDING:APPROVAL'
      WHEN e.status = 'pending' THEN 'PENDING:RUNNING'
      WHEN e.decision = 'deny' AND e.rule LIKE 'rate:%' THEN 'REFUSAL:RATE_LIMITED'
      WHEN e.decision = 'deny' THEN 'REFUSAL:POLICY_DENIED'
      WHEN e.decision = 'clarify' THEN 'AMBIGUITY:UNCLEAR_INTENT'
      WHEN e.status = 'failed' AND e.decision = 'require_approval' AND e.approved_by IS NULL
        THEN 'REFUSAL:NOT_APPROVED'
      WHEN e.status = 'failed' THEN 'ERROR:TOOL_FAILED'
      ELSE 'SUCCESS:TASK_COMPLETED'
    END AS outcome,
    e.error_message AS error_message,
    e.started_at AS started_at,
    e.duration_ms AS duration_ms,
    e.model_used AS model_used,
    e.tokens_used AS tokens_used,
    e.created_at AS created_at
  FROM audit_entries e
  WHERE e.kind IN ('tool_call', 'undo');
`;
