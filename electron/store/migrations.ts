import { INITIAL_SQL } from './migration-1-schema';
import { APPROVALS_AUDIT_SQL } from './migration-2-approvals';
import { DURABLE_RUNS_SQL } from './migration-4-durable-runs';
import { AGENTS_SQL } from './migration-12-agents';
import { AUDIT_TRAIL_SQL } from './migration-7-audit';
import { DECISION_LOGS_SQL } from './migration-9-decisions';
import { PLANS_SQL } from './migration-13-plans';
import { JOURNAL_SQL } from './migration-15-journal';
import { AUDIT_SEARCH_SQL } from './migration-16-audit-search';
import { AUDIT_LISTING_SQL } from './migration-17-audit-listing';
import { AUDIT_INBOX_SQL } from './migration-21-audit-inbox';
import { AUDIT_STATUSES_SQL } from './migration-24-audit-statuses';

/**
 * Numbered, forward-only migrations. A released migration is never edited: a change is a new entry.
 * `PRAGMA user_version` records how far a database has come.
 */
export interface Migration {
  version: number;
  name: string;
  sql: string;
  /**
   * Rebuilding a table that others reference (create, copy, drop, rename) must run with foreign keys off:
   * with them on, dropping the old table would cascade-delete the rows that point at it. `migrate` then checks
   * every reference itself before the migration commits.
   */
  foreignKeysOff?: true;
}

export const migrations: readonly Migration[] = [
  {
    version: 1,
    name: 'threads, messages, runs, actions, events, tasks, settings',
    sql: INITIAL_SQL,
  },
  {
    version: 2,
    name: 'approvals, policy decisions on actions, paused run state, known recipients, model usage, audit',
    sql: APPROVALS_AUDIT_SQL,
  },
  {
    version: 3,
    name: 'vault secrets, memories with full-text search',
    sql: `
      CREATE TABLE secrets (
        name TEXT PRIMARY KEY,
        ciphertext BLOB NOT NULL,
        updated_at TEXT NOT NULL
      );

      CREATE TABLE memories (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        text TEXT NOT NULL,
        source_run_id TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );

      CREATE VIRTUAL TABLE memories_fts USING fts5 (
        text,
        content = 'memories',
        content_rowid = 'seq',
        tokenize = 'unicode61 remove_diacritics 2'
      );
      CREATE TRIGGER memories_ai AFTER INSERT ON memories BEGIN
        INSERT INTO memories_fts (rowid, text) VALUES (new.seq, new.text);
      END;
      CREATE TRIGGER memories_ad AFTER DELETE ON memories BEGIN
        INSERT INTO memories_fts (memories_fts, rowid, text) VALUES ('delete', old.seq, old.text);
      END;
      CREATE TRIGGER memories_au AFTER UPDATE OF text ON memories BEGIN
        INSERT INTO memories_fts (memories_fts, rowid, text) VALUES ('delete', old.seq, old.text);
        INSERT INTO memories_fts (rowid, text) VALUES (new.seq, new.text);
      END;
    `,
  },
  {
    version: 4,
    name: 'durable runs: ledger states and idempotency on actions, recovered/resumed runs, runtime events, checkpoints',
    foreignKeysOff: true,
    sql: DURABLE_RUNS_SQL,
  },
  {
    version: 5,
    name: 'indexes that deleting a conversation needs',
    sql: `
      -- Deleting a run sets messages.run_id to NULL and deletes its approvals by thread: without these
      -- indexes each deleted run or thread would scan those whole tables.
      CREATE INDEX messages_by_run ON messages (run_id);
      CREATE INDEX approvals_by_thread ON approvals (thread_id);
    `,
  },
  {
    version: 6,
    name: 'memories record where they came from (the person, or content read) and when the person confirmed them',
    sql: `
      -- Rows from before this migration: nobody knows where their words came from, so they are 'legacy' and
      -- unconfirmed. They stay listed and searchable, but are not presented as facts the person confirmed
      -- until the person edits (and so confirms) them.
      ALTER TABLE memories ADD COLUMN origin TEXT NOT NULL DEFAULT 'legacy'
        CHECK (origin IN ('person','source','legacy'));
      ALTER TABLE memories ADD COLUMN source TEXT;
      ALTER TABLE memories ADD COLUMN confirmed_at TEXT;
    `,
  },
  {
    version: 7,
    name: 'the audit trail: one entry per tool call, its assumptions, a hash chain, full-text search',
    sql: AUDIT_TRAIL_SQL,
  },
  {
    version: 8,
    name: 'audit: indexes for a decision combined with a tool, a category or a risk',
    sql: `
      -- "require_approval" is a fifth of all entries and never happens to a read: without these, asking for
      -- it together with a read tool walked every require_approval row to find nothing.
      CREATE INDEX audit_entries_by_decision_type ON audit_entries (decision, action_type, seq);
      CREATE INDEX audit_entries_by_decision_category ON audit_entries (decision, action_category, seq);
      CREATE INDEX audit_entries_by_decision_risk ON audit_entries (decision, risk, seq);
    `,
  },
  {
    version: 9,
    name: "spec 002's logs: a decisions table (every request, refusals before a run included) and a tool_invocations view",
    sql: DECISION_LOGS_SQL,
  },
  {
    version: 10,
    name: "runs keep the model's intent analysis of the request (spec 004)",
    sql: `
      -- JSON of shared/contract/intent.ts RunIntent: the analysis the model stated at the start of the run,
      -- or {"stated": false} when it gave none. NULL for runs from before this migration and runs not yet past
      -- their first model turn.
      ALTER TABLE runs ADD COLUMN intent_json TEXT;
    `,
  },
  {
    version: 11,
    name: 'rate-limit windows read from covering indexes',
    sql: `
      -- The policy counts the calls of the last minute and hour, and sums the last hour's model tokens, before
      -- every call and turn: from these indexes alone, without visiting each row of the window.
      -- Partial, so a read that reaches no one (most calls) writes no page of either.
      CREATE INDEX actions_effects_window ON actions (created_at, state) WHERE has_side_effects = 1;
      CREATE INDEX actions_external_window ON actions (created_at, state) WHERE is_external = 1;
      CREATE INDEX model_usage_window ON model_usage (timestamp, tokens);
      DROP INDEX model_usage_by_time;
    `,
  },
  {
    version: 12,
    name: 'agents: the lineage of delegated runs and the artifacts agents make',
    sql: AGENTS_SQL,
  },
  {
    version: 13,
    name: 'plans: spec 004 plans, their steps, and the calls that carried out each step',
    sql: PLANS_SQL,
  },
  {
    version: 14,
    name: "conversations searched by their messages' words",
    sql: `
      -- The words of every message, for the conversation list's search. External content: the text lives once,
      -- in messages; messages are never edited, so an insert and a delete trigger keep the index whole.
      CREATE VIRTUAL TABLE messages_fts USING fts5 (
        text, content = 'messages', content_rowid = 'seq', tokenize = 'unicode61 remove_diacritics 2'
      );
      CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages BEGIN
        INSERT INTO messages_fts (rowid, text) VALUES (new.seq, new.text);
      END;
      CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages BEGIN
        INSERT INTO messages_fts (messages_fts, rowid, text) VALUES ('delete', old.seq, old.text);
      END;
      INSERT INTO messages_fts (messages_fts) VALUES ('rebuild');
    `,
  },
  {
    version: 15,
    name: "one compact journal for a run's stream events and runtime log",
    sql: JOURNAL_SQL,
  },
  {
    version: 16,
    name: "the audit trail's full-text index brought up to date after the fact, not inside each step",
    sql: AUDIT_SEARCH_SQL,
  },
  {
    version: 17,
    name: "the audit trail's filter indexes brought up to date after the fact, not inside each step",
    sql: AUDIT_LISTING_SQL,
  },
  {
    version: 18,
    name: "the ledger's index by time, which no query reads any more, is dropped",
    sql: `
      -- Since migration 11 the rate limits count from the partial window indexes, and nothing else reads the
      -- ledger by time: this index only cost every call a page of its step's commit.
      DROP INDEX actions_by_time;
    `,
  },
  {
    version: 19,
    name: "the artifacts' links to a checkpoint and to a source run are indexed",
    sql: `
      -- Deleting a checkpoint (a run prunes the ones its newest snapshot supersedes) or a run sets these links to
      -- NULL: without an index SQLite read every artifact, their contents too, for each row deleted.
      CREATE INDEX artifacts_by_checkpoint ON artifacts (checkpoint_id) WHERE checkpoint_id IS NOT NULL;
      CREATE INDEX artifacts_by_source_run ON artifacts (source_run_id) WHERE source_run_id IS NOT NULL;
    `,
  },
  {
    version: 20,
    name: 'the runs and the approvals by time, and the MCP answers the policy log keeps whole, are indexed',
    sql: `
      -- Settings → Usage reads the last month's runs, and the approvals list the newest approvals: without an
      -- index each read every run, or every approval with its preview, ever made.
      CREATE INDEX runs_by_time ON runs (created_at);
      CREATE INDEX approvals_by_time ON approvals (created_at);
      -- Deleting a conversation deletes the MCP answers kept whole for its runs: without an index it read the
      -- whole policy log, which gains a row or more per run, for every conversation deleted.
      CREATE INDEX audit_kept_words ON audit (run_id) WHERE event = 'mcp_full_result';
    `,
  },
  {
    version: 21,
    name: "a step's audit entries noted in an inbox, and filed into the trail after the fact",
    sql: AUDIT_INBOX_SQL,
  },
  {
    version: 22,
    name: "a failed call's error code beside its message",
    sql: `
      -- What the message says in words, for the window to tell apart: 'cancelled' is a call cut off because its
      -- run was stopped, not one that failed. Rows from before hold NULL and read as they always did.
      ALTER TABLE actions ADD COLUMN error_code TEXT;
    `,
  },
  {
    version: 23,
    name: "the names of the ids a call's arguments give",
    sql: `
      -- What the person knows the ids among a call's arguments by, as JSON ({"C0RANDOM01":"#random"}), found as
      -- the call was decided, so its card names them after a reload as it did live. Rows from before hold NULL.
      ALTER TABLE actions ADD COLUMN names_json TEXT;
    `,
  },
  {
    version: 24,
    name: "each of the audit trail's Status choices stored as failed reaches its entries through an index of its own",
    sql: AUDIT_STATUSES_SQL,
  },
  {
    version: 25,
    name: 'who settled an approval: the person, or Deputy itself',
    sql: `
      -- 'person' or 'deputy', written with the decision: a reason the person typed that reads like one of
      -- Deputy's own notes is still theirs. Rows from before hold NULL and are read by their note, as before.
      ALTER TABLE approvals ADD COLUMN decided_by TEXT;
    `,
  },
];
