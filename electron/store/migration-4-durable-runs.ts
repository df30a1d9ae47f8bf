/**
 * Migration 4 (released: never edit; a change is a new migration). Durable runs: the ledger rebuilt with its
 * states and idempotency keys, runs marked recovered or resumed, runtime events beside the stream, checkpoints.
 */
export const DURABLE_RUNS_SQL = `
      CREATE TABLE actions_v4 (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
        thread_id TEXT NOT NULL REFERENCES threads (id) ON DELETE CASCADE,
        call_id TEXT NOT NULL,
        tool TEXT NOT NULL,
        args_json TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('planned','awaiting_confirmation','approved','started','committed','failed','rejected','unknown')),
        result_json TEXT,
        error TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        fingerprint TEXT,
        meta_json TEXT,
        policy_decision TEXT,
        policy_rule TEXT,
        policy_reason TEXT,
        has_side_effects INTEGER NOT NULL DEFAULT 0,
        is_external INTEGER NOT NULL DEFAULT 0,
        idempotency_key TEXT,
        attempts INTEGER NOT NULL DEFAULT 0,
        UNIQUE (run_id, call_id)
      );
      INSERT INTO actions_v4 (seq, id, run_id, thread_id, call_id, tool, args_json, state, result_json, error,
        created_at, updated_at, fingerprint, meta_json, policy_decision, policy_rule, policy_reason,
        has_side_effects, is_external)
      SELECT seq, id, run_id, thread_id, call_id, tool, args_json,
        CASE state WHEN 'executing' THEN 'started' WHEN 'completed' THEN 'committed' ELSE state END,
        result_json, error, created_at, updated_at, fingerprint, meta_json, policy_decision, policy_rule,
        policy_reason, has_side_effects, is_external
      FROM actions;
      DROP TABLE actions;
      ALTER TABLE actions_v4 RENAME TO actions;
      CREATE INDEX actions_by_thread ON actions (thread_id, seq);
      CREATE INDEX actions_by_time ON actions (created_at);

      ALTER TABLE runs ADD COLUMN recovered INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE runs ADD COLUMN resumed INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE runs ADD COLUMN agent_id TEXT NOT NULL DEFAULT 'deputy';

      ALTER TABLE events ADD COLUMN kind TEXT NOT NULL DEFAULT 'stream' CHECK (kind IN ('stream','runtime'));

      CREATE TABLE checkpoints (
        id TEXT PRIMARY KEY,
        thread_id TEXT NOT NULL,
        run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
        step INTEGER NOT NULL,
        base_step INTEGER,
        timestamp TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('snapshot','delta')),
        state_blob TEXT NOT NULL,
        pending_tools TEXT,
        completed_tools TEXT,
        usage_tokens INTEGER,
        usage_cost REAL,
        UNIQUE (thread_id, step)
      );
      -- UNIQUE (thread_id, step) is the Keep-Up index on (thread_id, step): SQLite reads it in either direction.
      CREATE INDEX checkpoints_by_run ON checkpoints (run_id, step);
    `;
