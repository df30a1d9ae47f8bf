/**
 * Migration 1 (released: never edit; a change is a new migration). The first schema: conversations and their
 * messages, runs, the ledger of actions, the old event log, the task list and settings.
 */
export const INITIAL_SQL = `
      CREATE TABLE threads (
        id TEXT PRIMARY KEY,
        title TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE INDEX threads_by_updated ON threads (updated_at DESC, id DESC);

      CREATE TABLE runs (
        id TEXT PRIMARY KEY,
        thread_id TEXT NOT NULL REFERENCES threads (id) ON DELETE CASCADE,
        status TEXT NOT NULL CHECK (status IN ('queued','planning','executing','awaiting_confirmation','completed','failed')),
        model TEXT NOT NULL,
        prompt TEXT NOT NULL,
        mode TEXT,
        summary TEXT,
        decision TEXT,
        outcome TEXT,
        error_code TEXT,
        error_message TEXT,
        input_tokens INTEGER NOT NULL DEFAULT 0,
        output_tokens INTEGER NOT NULL DEFAULT 0,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE INDEX runs_by_thread ON runs (thread_id, created_at);
      CREATE INDEX runs_unfinished ON runs (status) WHERE status NOT IN ('completed','failed');

      CREATE TABLE messages (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        thread_id TEXT NOT NULL REFERENCES threads (id) ON DELETE CASCADE,
        run_id TEXT REFERENCES runs (id) ON DELETE SET NULL,
        role TEXT NOT NULL CHECK (role IN ('user','assistant')),
        text TEXT NOT NULL,
        created_at TEXT NOT NULL
      );
      CREATE INDEX messages_by_thread ON messages (thread_id, seq);

      CREATE TABLE actions (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
        thread_id TEXT NOT NULL REFERENCES threads (id) ON DELETE CASCADE,
        call_id TEXT NOT NULL,
        tool TEXT NOT NULL,
        args_json TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('planned','awaiting_confirmation','executing','completed','failed','rejected')),
        result_json TEXT,
        error TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        UNIQUE (run_id, call_id)
      );
      CREATE INDEX actions_by_thread ON actions (thread_id, seq);

      CREATE TABLE events (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
        thread_id TEXT NOT NULL,
        event_type TEXT NOT NULL,
        timestamp TEXT NOT NULL,
        payload TEXT NOT NULL
      );
      CREATE INDEX events_by_run ON events (run_id, id);

      CREATE TABLE tasks (
        id TEXT PRIMARY KEY,
        description TEXT NOT NULL,
        due TEXT,
        notes TEXT,
        status TEXT NOT NULL CHECK (status IN ('open','done')),
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        completed_at TEXT
      );
      CREATE INDEX tasks_by_status ON tasks (status, created_at);

      CREATE TABLE settings (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
      );
    `;
