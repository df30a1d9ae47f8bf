/**
 * Migration 2 (released: never edit; a change is a new migration). Approvals and the policy's decision on each
 * action, the state of a paused run, the recipients already contacted, the model's token use, and the first
 * audit log.
 */
export const APPROVALS_AUDIT_SQL = `
      ALTER TABLE runs ADD COLUMN state_json TEXT;

      ALTER TABLE actions ADD COLUMN fingerprint TEXT;
      ALTER TABLE actions ADD COLUMN meta_json TEXT;
      ALTER TABLE actions ADD COLUMN policy_decision TEXT;
      ALTER TABLE actions ADD COLUMN policy_rule TEXT;
      ALTER TABLE actions ADD COLUMN policy_reason TEXT;
      ALTER TABLE actions ADD COLUMN has_side_effects INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE actions ADD COLUMN is_external INTEGER NOT NULL DEFAULT 0;
      CREATE INDEX actions_by_time ON actions (created_at);

      CREATE TABLE approvals (
        id TEXT PRIMARY KEY,
        run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
        thread_id TEXT NOT NULL REFERENCES threads (id) ON DELETE CASCADE,
        action_id TEXT NOT NULL UNIQUE REFERENCES actions (id) ON DELETE CASCADE,
        tool TEXT NOT NULL,
        args_json TEXT NOT NULL,
        fingerprint TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('pending','approved','rejected','expired')),
        level TEXT NOT NULL CHECK (level IN ('confirm','review')),
        reason TEXT NOT NULL,
        rule TEXT NOT NULL,
        risk TEXT NOT NULL,
        preview_json TEXT NOT NULL,
        preview_text TEXT NOT NULL,
        intent TEXT,
        reasoning TEXT,
        confidence REAL,
        assumptions_json TEXT NOT NULL DEFAULT '[]',
        scopes_json TEXT NOT NULL DEFAULT '[]',
        created_at TEXT NOT NULL,
        expires_at TEXT NOT NULL,
        decided_at TEXT,
        decision_note TEXT
      );
      CREATE INDEX approvals_by_status ON approvals (status, expires_at);
      CREATE INDEX approvals_by_run ON approvals (run_id);

      CREATE TABLE known_recipients (
        address TEXT PRIMARY KEY,
        first_contacted_at TEXT NOT NULL
      );

      CREATE TABLE model_usage (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        run_id TEXT NOT NULL,
        timestamp TEXT NOT NULL,
        tokens INTEGER NOT NULL
      );
      CREATE INDEX model_usage_by_time ON model_usage (timestamp);

      CREATE TABLE audit (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        timestamp TEXT NOT NULL,
        run_id TEXT,
        action_id TEXT,
        tool TEXT,
        event TEXT NOT NULL,
        decision TEXT,
        rule TEXT,
        reason TEXT,
        detail_json TEXT
      );
      CREATE INDEX audit_by_time ON audit (timestamp);
    `;
