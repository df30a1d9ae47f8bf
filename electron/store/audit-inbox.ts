import type { EntryValues } from './audit-values';
import type { Db } from './database';

/** The names the insert gives an entry's values (`entryValues`), in its columns' order; `audit_inbox.entry` keeps them too. */
const VALUE_NAMES = [
  'id',
  'kind',
  'actionId',
  'threadId',
  'runId',
  'agentId',
  'actionType',
  'actionCategory',
  'risk',
  'intent',
  'reasoning',
  'confidence',
  'entityType',
  'entityId',
  'entityBefore',
  'entityAfter',
  'target',
  'input',
  'output',
  'outputRef',
  'isTruncated',
  'status',
  'errorMessage',
  'durationMs',
  'modelUsed',
  'tokensUsed',
  'decision',
  'rule',
  'reason',
  'approvedBy',
  'approvedAt',
  'isReversible',
  'undoNote',
  'undoOf',
  'startedAt',
  'now',
  'updatedAt',
] as const satisfies readonly (keyof EntryValues)[];

const INSERT_ENTRY = `
  INSERT INTO audit_entries (id, kind, action_id, thread_id, run_id, agent_id, action_type, action_category,
    risk, intent, reasoning, confidence, entity_type, entity_id, entity_before, entity_after, target,
    input_json, output_json, output_ref, is_output_truncated, status, error_message, duration_ms, model_used,
    tokens_used, decision, rule, reason, approved_by, approved_at, is_reversible, undo_note, undo_of,
    started_at, created_at, updated_at, chain_seq, is_listed)
  VALUES (${VALUE_NAMES.map((name) => `@${name}`).join(', ')}, @chainSeq, 0)`;

/** What `audit_entries` checks of a row (migration 7): a held entry must pass it, or it would be refused later. */
const KINDS: ReadonlySet<unknown> = new Set(['tool_call', 'undo', 'decision', 'record']);
const STATUSES: ReadonlySet<unknown> = new Set(['pending', 'completed', 'failed', 'rolled_back']);
const REQUIRED = ['id', 'agentId', 'actionType', 'actionCategory', 'now', 'updatedAt'] as const;

/**
 * Whether an entry may be held: the table would take it. One it would refuse is written at once instead, so
 * the refusal fails the step that made it, with its ledger row, as it always has.
 */
export const isHoldable = (values: EntryValues): boolean =>
  KINDS.has(values.kind) &&
  STATUSES.has(values.status) &&
  REQUIRED.every((name) => typeof values[name] === 'string');

interface HeldRow {
  chain_seq: number;
  entry: string;
}

/**
 * Where audit entries enter `audit_entries` (migration 21). A step's entry is held in `audit_inbox`, one row
 * keyed by its chain link, and filed later; every other entry is written at once, after the held ones, so the
 * trail's order (`seq`) stays the order the entries were made in. Whoever reads `audit_entries` files the inbox
 * first: it costs one look at an empty table when nothing waits.
 */
export class AuditInbox {
  private readonly insertEntry;
  private readonly insertHeld;
  private readonly hasHeld;
  private readonly selectHeld;
  private readonly forget;
  private readonly fileInTransaction: (limit: number) => number;
  /** Held rows the table refused (edited behind the app's back): a background batch looks past them. */
  private readonly refused = new Set<number>();

  constructor(db: Db) {
    this.insertEntry = db.prepare(INSERT_ENTRY);
    this.insertHeld = db.prepare<[number, string]>(
      'INSERT INTO audit_inbox (chain_seq, entry) VALUES (?, ?)',
    );
    this.hasHeld = db.prepare<[], number>('SELECT EXISTS (SELECT 1 FROM audit_inbox)').pluck();
    this.selectHeld = db.prepare<[number], HeldRow>(
      'SELECT chain_seq, entry FROM audit_inbox ORDER BY chain_seq LIMIT CAST(? AS INTEGER)',
    );
    this.forget = db.prepare<[number]>('DELETE FROM audit_inbox WHERE chain_seq = ?');
    this.fileInTransaction = db.transaction((limit: number) => {
      let filed = 0;
      for (const held of this.selectHeld.all(limit)) {
        // A row that is not an entry (edited behind the app's back) stays where it is, and the others are
        // filed: the chain check then names its link as one whose entry is gone.
        const values = parseHeld(held.entry);
        if (!values || !this.isFiled(values, held.chain_seq)) {
          this.refused.add(held.chain_seq);
          continue;
        }
        this.forget.run(held.chain_seq);
        filed += 1;
      }
      return filed;
    });
  }

  /** Inserts a held entry; false if the table refuses it (a value no entry could have). */
  private isFiled(values: Record<string, unknown>, chainSeq: number): boolean {
    try {
      this.insertEntry.run({ ...values, chainSeq });
      return true;
    } catch (error) {
      // Only that statement is undone; anything else (a full disk) ends the filing.
      const code = (error as { code?: unknown }).code;
      if (typeof code === 'string' && code.startsWith('SQLITE_CONSTRAINT')) return false;
      throw error;
    }
  }

  /** Holds a step's entry, whose chain link `chainSeq` is written, to be filed later. */
  hold(values: EntryValues, chainSeq: number): void {
    this.insertHeld.run(chainSeq, JSON.stringify(values));
  }

  /** Writes an entry into the trail now, after the ones held (`chainSeq`: its link, or null until it has one). */
  write(values: EntryValues, chainSeq: number | null): void {
    this.file();
    this.insertEntry.run({ ...values, chainSeq });
  }

  /**
   * Files the held entries into the trail, oldest first, in one transaction: every one (before a read), or the
   * `limit` oldest (a batch in the background); answers how many were filed.
   */
  file(limit = -1): number {
    if (this.hasHeld.get() !== 1) return 0;
    return this.fileInTransaction(limit < 0 ? -1 : limit + this.refused.size);
  }
}

/** A held row's values with every name the insert needs (a name added since it was held is NULL). */
function parseHeld(entry: string): Record<string, unknown> | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(entry);
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return null;
  const given = parsed as Record<string, unknown>;
  const values = Object.fromEntries(VALUE_NAMES.map((name) => [name, given[name] ?? null]));
  const isBindable = Object.values(values).every(
    (value) =>
      value === null || typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value)),
  );
  return isBindable && typeof values.id === 'string' ? values : null;
}
