import type { AssumptionCategory, AuditApprover, AuditEntry, AuditStatus } from '../../shared/contract';
import { redactedJson, redactSecrets } from '../vault/redactor';
import { AuditInbox, isHoldable } from './audit-inbox';
import {
  contentHash,
  GENESIS_HASH,
  linkHash,
  toEntry,
  type AssumptionRow,
  type AuditRow,
} from './audit-rows';
import {
  entryValues,
  isStoredAsGiven,
  settledValues,
  settlementValues,
  storedContent,
  type EntryValues,
} from './audit-values';
import type { Db } from './database';
import { newRowId } from './row-ids';
import { NO_UNIT, type UnitHooks } from './write-unit';

export interface NewAssumption {
  statement: string;
  category: AssumptionCategory;
  evidence?: string[];
  confidence?: number | null;
}

export interface Effect {
  entityType: string;
  entityId: string | null;
  before: unknown;
  after: unknown;
}

export interface NewAuditEntry {
  id?: string;
  kind: AuditEntry['kind'];
  actionId?: string | null;
  threadId?: string | null;
  runId?: string | null;
  agentId: string;
  actionType: string;
  actionCategory: string;
  risk?: string | null;
  intent?: string | null;
  reasoning?: string | null;
  confidence?: number | null;
  assumptions?: readonly NewAssumption[];
  target?: string | null;
  input?: unknown;
  output?: unknown;
  outputRef?: string | null;
  effect?: Effect | null;
  status: AuditStatus;
  errorMessage?: string | null;
  durationMs?: number | null;
  modelUsed?: string | null;
  tokensUsed?: number | null;
  decision?: string | null;
  rule?: string | null;
  reason?: string | null;
  approvedBy?: AuditApprover | null;
  approvedAt?: string | null;
  isReversible?: boolean;
  undoNote?: string | null;
  undoOf?: string | null;
}

export interface Settlement {
  status: AuditStatus;
  /**
   * When the call began and how long it took, measured by the engine: kept in memory rather than written when
   * it starts, which would cost every call one more write and chain link. A call resumed after a crash has none.
   */
  startedAt?: string | null;
  durationMs?: number | null;
  output?: unknown;
  outputRef?: string | null;
  effect?: Effect | null;
  errorMessage?: string | null;
}

/**
 * The audit trail's writes. Each one is called inside the transaction of the ledger transition it describes,
 * and appends a chain link for the entry it touched, so the entry, its link and the ledger land together.
 */
export class AuditRepo {
  private readonly insertAssumption;
  private readonly selectRow;
  private readonly selectAssumptions;
  private readonly selectByAction;
  private readonly selectTip;
  private readonly insertLink;
  private readonly rewriteLink;
  private readonly pointAtLink;
  private readonly changes = new Map<string, ReturnType<Db['prepare']>>();
  /** The newest link this repo wrote, and the unit of work it was written in (null: committed on its own). */
  private lastLink: { seq: number; unit: number | null } | null = null;

  /**
   * A call's entry opened inside a unit of work, not written yet (see `open`), by its ledger action. Written at
   * the call's settlement or when the unit commits, whichever comes first, with one chain link.
   */
  private readonly unwritten = new Map<
    string,
    { values: EntryValues; assumptions: readonly NewAssumption[]; isNewId: boolean }
  >();

  /**
   * `unit`: the store's unit of work: which one is open now (`WriteUnit.openUnit`), a write to make just
   * before it commits (`WriteUnit.atCommit`), and memory to undo if the group running now fails
   * (`WriteUnit.onRollback`). Without one, every write is made at once. `inbox`: where entries enter the
   * table, which every reader of the trail files first.
   */
  constructor(
    private readonly db: Db,
    private readonly unit: UnitHooks = NO_UNIT,
    private readonly inbox: AuditInbox = new AuditInbox(db),
  ) {
    this.insertAssumption = db.prepare(
      `INSERT INTO audit_assumptions (id, entry_id, position, statement, category, evidence_json, confidence)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    );
    this.selectRow = db.prepare<[string], AuditRow>('SELECT * FROM audit_entries WHERE id = ?');
    this.selectAssumptions = db.prepare<[string], AssumptionRow>(
      'SELECT * FROM audit_assumptions WHERE entry_id = CAST(? AS TEXT) ORDER BY position',
    );
    this.selectByAction = db
      .prepare<[string], string>(`SELECT id FROM audit_entries WHERE action_id = ? AND kind = 'tool_call'`)
      .pluck();
    this.selectTip = db.prepare<[], ChainTip>(
      'SELECT seq, entry_id, prev_hash, hash FROM audit_chain ORDER BY seq DESC LIMIT 1',
    );
    this.insertLink = db.prepare(
      'INSERT INTO audit_chain (entry_id, content_hash, prev_hash, hash, at) VALUES (?, ?, ?, ?, ?)',
    );
    this.rewriteLink = db.prepare(
      'UPDATE audit_chain SET content_hash = ?, hash = ?, at = ? WHERE seq = CAST(? AS INTEGER)',
    );
    this.pointAtLink = db.prepare('UPDATE audit_entries SET chain_seq = ? WHERE id = ?');
  }

  /**
   * Writes a new entry (with its assumptions and its first chain link); answers its id. A call's entry opened
   * inside a unit of work is written once, settled, when the call settles in the same unit (a read call): one
   * row and one link instead of a row, an update and a link rewritten. Otherwise it is written as the unit
   * commits, with the ledger row it describes; no one outside the unit could have read it before either.
   */
  open(entry: NewAuditEntry, now: string): string {
    const id = entry.id ?? newRowId();
    const values = entryValues(id, entry, now);
    const assumptions = entry.assumptions ?? [];
    const actionId = entry.actionId;
    // An id made here is new: one given by the caller could be taken, which only the table can tell.
    const isNewId = entry.id === undefined;
    if (entry.kind === 'tool_call' && actionId && this.unit.openUnit !== null) {
      const unwritten = { values, assumptions, isNewId };
      this.unwritten.set(actionId, unwritten);
      // It goes back with its ledger row if the group that made them fails.
      this.unit.onRollback(() => {
        if (this.unwritten.get(actionId) === unwritten) this.unwritten.delete(actionId);
      });
      this.unit.atCommit(`audit:${actionId}`, () => this.writeUnwritten(actionId));
      return id;
    }
    this.write(values, assumptions, isNewId);
    return id;
  }

  /**
   * Inserts a new entry with its first chain link. Without assumptions, the link is made from the values being
   * inserted (`storedContent`), before the row, so the row is written once, already pointing at it; inside a
   * step, the row is held in the inbox, to be filed after the fact (migration 21), when the table is sure to
   * take it (`isNewId`, `isHoldable`): a refusal then fails the step, as it did. An entry with assumptions, or
   * with a value SQLite would convert, is written at once and linked after, from what the table holds.
   */
  private write(values: EntryValues, assumptions: readonly NewAssumption[], isNewId: boolean): void {
    const stored = storedContent(values);
    if (assumptions.length === 0 && isStoredAsGiven(stored)) {
      const content = contentHash(stored, []);
      const chainSeq = this.appendLink(values.id, content, values.updatedAt);
      if (this.unit.openUnit !== null && isNewId && isHoldable(values)) this.inbox.hold(values, chainSeq);
      else this.inbox.write(values, chainSeq);
      return;
    }
    this.inbox.write(values, null);
    assumptions.forEach((assumption, position) => {
      this.insertAssumption.run(
        newRowId(),
        values.id,
        position,
        redactSecrets(assumption.statement),
        assumption.category,
        redactedJson(assumption.evidence ?? []),
        assumption.confidence ?? null,
      );
    });
    this.link(values.id, values.updatedAt);
  }

  /** Writes the call's entry if it is still unwritten. */
  private writeUnwritten(actionId: string, settled?: (values: EntryValues) => EntryValues): void {
    const unwritten = this.unwritten.get(actionId);
    if (!unwritten) return;
    this.unwritten.delete(actionId);
    // Written inside a group that then fails (its settlement), the row goes back: the entry waits again as it
    // was before, for its settlement or for the write `open` left for the commit, like its ledger row.
    this.unit.onRollback(() => {
      if (!this.unwritten.has(actionId)) this.unwritten.set(actionId, unwritten);
    });
    this.write(
      settled ? settled(unwritten.values) : unwritten.values,
      unwritten.assumptions,
      unwritten.isNewId,
    );
  }

  /** Writes an unwritten entry now, before it is read or changed by its id. */
  private writeById(entryId: string): void {
    for (const [actionId, { values }] of this.unwritten) {
      if (values.id === entryId) return this.writeUnwritten(actionId);
    }
  }

  /** The entry of a ledger action's tool call, or null (an action from before the audit trail existed). */
  idOfAction(actionId: string): string | null {
    const unwritten = this.unwritten.get(actionId);
    if (unwritten) return unwritten.values.id;
    this.inbox.file();
    return this.selectByAction.get(actionId) ?? null;
  }

  /** The call's outcome, from the ledger transition that records it. */
  settle(actionId: string, settlement: Settlement, now: string): void {
    if (this.unwritten.has(actionId))
      return this.writeUnwritten(actionId, (values) => settledValues(values, settlement, now));
    this.changeByAction(
      actionId,
      `status = @status, output_json = COALESCE(@output, output_json), output_ref = COALESCE(@outputRef, output_ref),
       is_output_truncated = @isTruncated, error_message = @errorMessage,
       entity_type = COALESCE(@entityType, entity_type), entity_id = COALESCE(@entityId, entity_id),
       entity_before = COALESCE(@entityBefore, entity_before), entity_after = COALESCE(@entityAfter, entity_after),
       started_at = COALESCE(@startedAt, started_at), duration_ms = COALESCE(@durationMs, duration_ms)`,
      settlementValues(settlement),
      now,
    );
  }

  /** Who let the call happen, once it is known (the person approved it). */
  authorize(actionId: string, approvedBy: AuditApprover, now: string): void {
    this.writeUnwritten(actionId);
    this.changeByAction(actionId, 'approved_by = @approvedBy, approved_at = @now', { approvedBy }, now);
  }

  /** Sets columns of one entry by its id (its content changes, so it gets a new link). */
  change(entryId: string, assignments: string, values: Record<string, unknown>, now: string): boolean {
    this.writeById(entryId);
    this.inbox.file();
    let statement = this.changes.get(assignments);
    if (!statement) {
      statement = this.db.prepare(
        `UPDATE audit_entries SET ${assignments}, updated_at = @now WHERE id = @entryId`,
      );
      this.changes.set(assignments, statement);
    }
    const changed = statement.run({ ...values, now, entryId }).changes;
    if (changed > 0) this.link(entryId, now);
    return changed > 0;
  }

  /** The row and its assumptions, as stored (for the query side and for checks). */
  read(entryId: string): AuditEntry | null {
    this.writeById(entryId);
    this.inbox.file();
    const row = this.selectRow.get(entryId);
    return row ? toEntry(row, this.selectAssumptions.all(entryId)) : null;
  }

  private changeByAction(
    actionId: string,
    assignments: string,
    values: Record<string, unknown>,
    now: string,
  ): void {
    const entryId = this.idOfAction(actionId);
    if (entryId) this.change(entryId, assignments, values, now);
  }

  /**
   * Appends the entry's current content to the chain and points the entry at its newest link. The chain holds
   * each version of an entry that reached the disk: when the entry's own link is the newest one and was written
   * in the unit of work still open (a read call opened and settled in one step), no one has seen that version,
   * so the link is rewritten with the content the unit will commit instead of followed by a second one.
   */
  link(entryId: string, now: string): void {
    const row = this.selectRow.get(entryId);
    if (!row) throw new Error(`audit entry ${entryId} vanished inside its own transaction`);
    const content = contentHash(row, this.selectAssumptions.all(entryId));
    const tip = this.selectTip.get();
    const unit = this.unit.openUnit;
    if (
      tip?.entry_id === entryId &&
      unit !== null &&
      this.lastLink?.seq === tip.seq &&
      this.lastLink.unit === unit
    ) {
      this.rewriteLink.run(content, linkHash(tip.prev_hash, entryId, content, now), now, tip.seq);
      return;
    }
    this.pointAtLink.run(this.appendLink(entryId, content, now, tip), entryId);
  }

  /** Adds a link after the chain's newest one; answers its seq. */
  private appendLink(
    entryId: string,
    content: string,
    now: string,
    tip: ChainTip | undefined = this.selectTip.get(),
  ): number {
    const prev = tip?.hash ?? GENESIS_HASH;
    const { lastInsertRowid } = this.insertLink.run(
      entryId,
      content,
      prev,
      linkHash(prev, entryId, content, now),
      now,
    );
    const seq = Number(lastInsertRowid);
    this.lastLink = { seq, unit: this.unit.openUnit };
    return seq;
  }
}

interface ChainTip {
  seq: number;
  entry_id: string;
  prev_hash: string;
  hash: string;
}
