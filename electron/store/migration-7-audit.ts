/**
 * Migration 7 (released: never edit; a change is a new migration). The audit trail of spec 004.
 *
 * - `audit_entries`: one row per tool call (reads included), per undo, per run's decision, and per record the app
 *   keeps of itself (a conversation deleted). No foreign keys: an entry outlives its conversation (see below).
 * - `audit_assumptions`: the assumptions an entry was made under, each verifiable and correctable by the person.
 * - `audit_chain`: append-only. Every write to an entry (created, started, settled, verified, undone, scrubbed)
 *   appends a link whose hash covers the entry's content hash and the previous link's hash. `chain_seq` on the
 *   entry points at its latest link, so a check can recompute each entry's content and compare.
 * - Deleting a conversation scrubs its entries' content (a tombstone: what was done stays, the words go) and
 *   appends a link for each, so the chain never loses a link and a deleted conversation leaves no text behind.
 * - `audit_fts`: FTS5 over what a person searches for, kept in step by triggers.
 */
export const AUDIT_TRAIL_SQL = `
  CREATE TABLE audit_entries (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    kind TEXT NOT NULL CHECK (kind IN ('tool_call','undo','decision','record')),
    action_id TEXT,
    thread_id TEXT,
    run_id TEXT,
    agent_id TEXT NOT NULL,
    action_type TEXT NOT NULL,
    action_category TEXT NOT NULL,
    risk TEXT,
    intent TEXT,
    reasoning TEXT,
    confidence REAL,
    entity_type TEXT,
    entity_id TEXT,
    entity_before TEXT,
    entity_after TEXT,
    target TEXT,
    input_json TEXT,
    output_json TEXT,
    output_ref TEXT,
    is_output_truncated INTEGER NOT NULL DEFAULT 0,
    status TEXT NOT NULL CHECK (status IN ('pending','completed','failed','rolled_back')),
    error_message TEXT,
    started_at TEXT,
    duration_ms INTEGER,
    model_used TEXT,
    tokens_used INTEGER,
    decision TEXT,
    rule TEXT,
    reason TEXT,
    approved_by TEXT,
    approved_at TEXT,
    is_reversible INTEGER NOT NULL DEFAULT 0,
    undo_note TEXT,
    undo_of TEXT,
    undone_by TEXT,
    scrubbed_at TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    chain_seq INTEGER
  );
  CREATE INDEX audit_entries_by_action ON audit_entries (action_id);
  CREATE INDEX audit_entries_by_thread ON audit_entries (thread_id, seq);
  CREATE INDEX audit_entries_by_run ON audit_entries (run_id, seq);
  CREATE INDEX audit_entries_by_agent ON audit_entries (agent_id, seq);
  CREATE INDEX audit_entries_by_type ON audit_entries (action_type, seq);
  CREATE INDEX audit_entries_by_category ON audit_entries (action_category, seq);
  CREATE INDEX audit_entries_by_status ON audit_entries (status, seq);
  CREATE INDEX audit_entries_by_risk ON audit_entries (risk, seq);
  CREATE INDEX audit_entries_by_decision ON audit_entries (decision, seq);
  CREATE INDEX audit_entries_by_time ON audit_entries (created_at);

  CREATE TABLE audit_assumptions (
    id TEXT PRIMARY KEY,
    entry_id TEXT NOT NULL REFERENCES audit_entries (id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    statement TEXT NOT NULL,
    category TEXT NOT NULL CHECK (category IN ('intent','context','preference','inference')),
    evidence_json TEXT NOT NULL DEFAULT '[]',
    confidence REAL,
    verified INTEGER,
    verified_at TEXT,
    correction TEXT
  );
  CREATE INDEX audit_assumptions_by_entry ON audit_assumptions (entry_id, position);

  CREATE TABLE audit_chain (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    entry_id TEXT NOT NULL,
    content_hash TEXT NOT NULL,
    prev_hash TEXT NOT NULL,
    hash TEXT NOT NULL,
    at TEXT NOT NULL
  );

  CREATE VIRTUAL TABLE audit_fts USING fts5 (
    action_type, intent, reasoning, target, input_json, output_json, error_message,
    content = 'audit_entries',
    content_rowid = 'seq',
    tokenize = 'unicode61 remove_diacritics 2'
  );
  CREATE TRIGGER audit_entries_ai AFTER INSERT ON audit_entries BEGIN
    INSERT INTO audit_fts (rowid, action_type, intent, reasoning, target, input_json, output_json, error_message)
    VALUES (new.seq, new.action_type, new.intent, new.reasoning, new.target, new.input_json, new.output_json,
      new.error_message);
  END;
  CREATE TRIGGER audit_entries_ad AFTER DELETE ON audit_entries BEGIN
    INSERT INTO audit_fts (audit_fts, rowid, action_type, intent, reasoning, target, input_json, output_json,
      error_message)
    VALUES ('delete', old.seq, old.action_type, old.intent, old.reasoning, old.target, old.input_json,
      old.output_json, old.error_message);
  END;
  CREATE TRIGGER audit_entries_au AFTER UPDATE OF action_type, intent, reasoning, target, input_json, output_json,
    error_message ON audit_entries BEGIN
    INSERT INTO audit_fts (audit_fts, rowid, action_type, intent, reasoning, target, input_json, output_json,
      error_message)
    VALUES ('delete', old.seq, old.action_type, old.intent, old.reasoning, old.target, old.input_json,
      old.output_json, old.error_message);
    INSERT INTO audit_fts (rowid, action_type, intent, reasoning, target, input_json, output_json, error_message)
    VALUES (new.seq, new.action_type, new.intent, new.reasoning, new.target, new.input_json, new.output_json,
      new.error_message);
  END;
`;
