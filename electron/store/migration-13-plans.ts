/**
 * Spec 004's plans: a plan per run that proposed one, its steps, and which of the run's calls carried out which
 * step. A call is tied by (run_id, call_id), the ledger's own key, so a resumed run finds its ties again.
 */
export const PLANS_SQL = `
  CREATE TABLE plans (
    id TEXT PRIMARY KEY,
    run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    thread_id TEXT NOT NULL REFERENCES threads (id) ON DELETE CASCADE,
    goal TEXT NOT NULL,
    status TEXT NOT NULL
      CHECK (status IN ('planned','executing','paused','completed','failed','cancelled')),
    current_step INTEGER NOT NULL DEFAULT 0,
    requires_approval INTEGER NOT NULL DEFAULT 0,
    approved_at TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  CREATE INDEX plans_by_run ON plans (run_id);
  CREATE INDEX plans_by_thread ON plans (thread_id);
  CREATE TABLE plan_steps (
    plan_id TEXT NOT NULL REFERENCES plans (id) ON DELETE CASCADE,
    step_id TEXT NOT NULL,
    position INTEGER NOT NULL,
    title TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('tool','reason','ask')),
    tool TEXT,
    args TEXT NOT NULL,
    fixed TEXT NOT NULL,
    depends_on TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN
      ('pending','ready','running','awaiting_approval','awaiting_user','done','failed','skipped','cancelled')),
    needs_approval INTEGER NOT NULL DEFAULT 0,
    approval_reason TEXT,
    -- The tool and fixed fields as the person approved them with the plan (JSON), or NULL.
    approved TEXT,
    question TEXT,
    answer TEXT,
    result TEXT,
    attempts INTEGER NOT NULL DEFAULT 0,
    max_attempts INTEGER NOT NULL DEFAULT 1,
    PRIMARY KEY (plan_id, step_id)
  );
  CREATE TABLE plan_step_calls (
    run_id TEXT NOT NULL,
    call_id TEXT NOT NULL,
    plan_id TEXT NOT NULL,
    step_id TEXT NOT NULL,
    PRIMARY KEY (run_id, call_id),
    FOREIGN KEY (plan_id, step_id) REFERENCES plan_steps (plan_id, step_id) ON DELETE CASCADE
  );
  CREATE INDEX plan_step_calls_by_plan ON plan_step_calls (plan_id);
`;
