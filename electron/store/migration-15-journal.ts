/**
 * Migration 15: one compact journal for a run's stream events and its runtime log.
 *
 * Before it, every thing a run said was a row of `events` that repeated the run's and the thread's ids (as text
 * in two columns, in the payload, and in the index) and an ISO timestamp; stream and runtime rows said most
 * things twice. A journal row names its run by a small integer (`run_keys`), its type by a code
 * (`journal_types`, frozen: a code is never reused), its instant in milliseconds, and keeps in `body` only
 * what the columns do not say. The table is clustered on (run, seq), so it needs no index of its own.
 *
 * The old `events` table stays as it is: rows written before this migration are read from there, first.
 */
export const JOURNAL_SQL = `
  -- AUTOINCREMENT: a deleted run's key is never given to another run.
  CREATE TABLE run_keys (
    key INTEGER PRIMARY KEY AUTOINCREMENT,
    run_id TEXT NOT NULL UNIQUE REFERENCES runs (id) ON DELETE CASCADE
  );

  CREATE TABLE journal_types (
    code INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('stream', 'runtime')),
    UNIQUE (kind, name)
  );
  INSERT INTO journal_types (code, name, kind) VALUES
    (1, 'status', 'stream'), (2, 'tool_call', 'stream'), (3, 'tool_result', 'stream'), (4, 'usage', 'stream'),
    (5, 'approval_needed', 'stream'), (6, 'notice', 'stream'), (7, 'plan', 'stream'), (8, 'thinking', 'stream'),
    (9, 'result', 'stream'), (10, 'error', 'stream'), (11, 'delta', 'stream'),
    (21, 'turn_start', 'runtime'), (22, 'turn_end', 'runtime'), (23, 'tool_call_start', 'runtime'),
    (24, 'tool_call_end', 'runtime'), (25, 'recovery', 'runtime'), (26, 'completion', 'runtime'),
    (27, 'error', 'runtime'), (28, 'routing', 'runtime'), (29, 'retry', 'runtime'),
    (30, 'compression', 'runtime'), (31, 'resume', 'runtime');

  CREATE TABLE journal (
    run INTEGER NOT NULL REFERENCES run_keys (key) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    -- milliseconds since 1970 (UTC)
    at INTEGER NOT NULL,
    type INTEGER NOT NULL REFERENCES journal_types (code),
    -- runtime rows: the model turn, and the tool call the row is about
    turn INTEGER,
    call TEXT,
    -- only when they differ from the run's own thread, and from the chat agent
    thread TEXT,
    agent TEXT,
    -- JSON: a stream event without its type and ids; a runtime row's payload
    body TEXT NOT NULL,
    PRIMARY KEY (run, seq)
  ) WITHOUT ROWID;

  -- The journal read as the old events table (for diagnosis and for tools that read the file directly).
  CREATE VIEW journal_events AS
    SELECT k.run_id AS run_id, coalesce(j.thread, r.thread_id) AS thread_id, t.name AS event_type, t.kind AS kind,
      j.seq AS seq, j.at AS at, j.turn AS turn, j.call AS call, j.body AS body
    FROM journal AS j
    JOIN run_keys AS k ON k.key = j.run
    JOIN runs AS r ON r.id = k.run_id
    JOIN journal_types AS t ON t.code = j.type;
`;
