import { AUDIT_PAGE, type AuditEntry, type AuditFilter, type AuditListOutput } from '../../shared/contract';
import type { AuditInbox } from './audit-inbox';
import { namesOf } from './action-rows';
import { isUndoable, toEntry, type AssumptionRow, type AuditRow } from './audit-rows';
import type { AuditSearchIndex } from './audit-search-index';
import { isAmongFailed, statusConditions, statusPageSql, type ApprovalEnding } from './audit-status-pages';
import type { Db } from './database';

/** Each word a quoted prefix term, all required: "sam inv" finds entries with words starting sam… and inv…. */
export function toAuditMatch(text: string): string | null {
  const words = text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [];
  const unique = [...new Set(words)].slice(0, 16);
  return unique.length === 0 ? null : unique.map((word) => `"${word}"*`).join(' ');
}

const COLUMN_OF: Record<string, string> = {
  threadId: 'thread_id',
  runId: 'run_id',
  agentId: 'agent_id',
  tool: 'action_type',
  category: 'action_category',
  risk: 'risk',
  decision: 'decision',
};

/**
 * The index a filtered page walks, newest first. SQLite keeps no statistics here, so without a hint it may walk
 * a column where nearly every row matches ("completed") and filter the rest. The most selective filter the
 * person set goes first: a conversation or a run, then the rare values (a failure, a denial), then a tool. A
 * combination that matches nothing still walks the whole of the first index's range: that is the slow case.
 */
function indexFor(filter: AuditFilter): string | null {
  if (filter.threadId !== undefined) return 'audit_entries_by_thread';
  if (filter.runId !== undefined) return 'audit_entries_by_run';
  if (filter.status !== undefined && filter.status !== 'completed') return 'audit_entries_by_status';
  if (filter.decision !== undefined) {
    if (filter.tool !== undefined) return 'audit_entries_by_decision_type';
    if (filter.category !== undefined) return 'audit_entries_by_decision_category';
    if (filter.risk !== undefined) return 'audit_entries_by_decision_risk';
  }
  if (filter.decision === 'deny' || filter.decision === 'clarify') return 'audit_entries_by_decision';
  if (filter.tool !== undefined) return 'audit_entries_by_type';
  if (filter.category !== undefined) return 'audit_entries_by_category';
  if (filter.risk !== undefined) return 'audit_entries_by_risk';
  if (filter.agentId !== undefined) return 'audit_entries_by_agent';
  if (filter.status !== undefined) return 'audit_entries_by_status';
  if (filter.decision !== undefined) return 'audit_entries_by_decision';
  return null;
}

/** Where an action stands for Undo (see `ActionRecord`'s fields of the same names). */
export interface ActionUndoState {
  isUndone: boolean;
  canUndo: boolean;
  isUndoWaiting: boolean;
  /** Done, with a side effect and no Undo: why. */
  undoNote: string | null;
}

type UndoStateRow = Pick<AuditRow, 'id' | 'is_reversible' | 'status' | 'undone_by' | 'undo_note'> & {
  action_id: string;
  has_side_effects: number;
};

function undoStateOf(row: UndoStateRow, isUndoWaiting: boolean): ActionUndoState {
  const isUndone = row.status === 'rolled_back';
  const canUndo = isUndoable(row);
  return {
    isUndone,
    canUndo,
    isUndoWaiting: canUndo && isUndoWaiting,
    // A read has nothing to undo, and its card need not say so.
    undoNote: row.status === 'completed' && !canUndo && row.has_side_effects === 1 ? row.undo_note : null,
  };
}

/**
 * Reads of the audit trail, newest first, a page at a time. Every filter is an indexed column compared with
 * `seq`, and full-text search is driven from the FTS5 index in rowid order, so a page costs the same on a
 * million entries as on a hundred: nothing sorts or counts the whole table.
 */
export class AuditQuery {
  private readonly selectOne;
  private readonly selectByAction;
  private readonly selectAssumptions;
  private readonly selectAssumptionsOf;
  private readonly selectUndoStates;
  private readonly selectApprovalEndings;
  private readonly selectNames;
  private readonly selectWaitingUndos;
  private readonly firstSeqFrom;
  private readonly lastSeqTo;
  private readonly statements = new Map<string, ReturnType<Db['prepare']>>();

  constructor(
    private readonly db: Db,
    private readonly search: AuditSearchIndex,
    private readonly inbox: AuditInbox,
  ) {
    this.selectOne = db.prepare<[string], AuditRow>('SELECT * FROM audit_entries WHERE id = ?');
    this.selectByAction = db.prepare<[string], AuditRow>(
      'SELECT * FROM audit_entries WHERE action_id = ? ORDER BY seq LIMIT 1',
    );
    this.selectAssumptions = db.prepare<[string], AssumptionRow>(
      `SELECT * FROM audit_assumptions WHERE entry_id IN (SELECT value FROM json_each(?))
       ORDER BY entry_id, position`,
    );
    // A call's own entry (not an undo's: an undo's ledger row is not a card of the conversation).
    this.selectUndoStates = db.prepare<[string], UndoStateRow>(
      `SELECT e.id, e.action_id, e.is_reversible, e.status, e.undone_by, e.undo_note, a.has_side_effects
       FROM audit_entries e JOIN actions a ON a.id = e.action_id
       WHERE e.action_id IN (SELECT value FROM json_each(?)) AND e.kind = 'tool_call'`,
    );
    // Looked up by action id (`+status` keeps SQLite from walking every rejected approval there ever was instead).
    this.selectApprovalEndings = db.prepare<[string], { action_id: string; status: ApprovalEnding }>(
      `SELECT action_id, status FROM approvals WHERE action_id IN (SELECT value FROM json_each(?))
       AND +status IN ('rejected', 'expired')`,
    );
    // An undo's names are the call's it undid: found through that call's entry (`undo_of`).
    this.selectNames = db.prepare<[string], { entry_id: string; names_json: string }>(
      `SELECT e.id AS entry_id, a.names_json FROM audit_entries e
       JOIN actions a ON a.id = CASE WHEN e.undo_of IS NULL THEN e.action_id
         ELSE (SELECT o.action_id FROM audit_entries o WHERE o.id = e.undo_of) END
       WHERE e.id IN (SELECT value FROM json_each(?)) AND a.names_json IS NOT NULL`,
    );
    // Found through the status index: pending entries are few (held calls, undos in flight).
    this.selectWaitingUndos = db
      .prepare<[], string>(
        `SELECT undo_of FROM audit_entries INDEXED BY audit_entries_by_status
         WHERE status = 'pending' AND kind = 'undo' AND decision = 'require_approval' AND approved_by IS NULL`,
      )
      .pluck();
    this.firstSeqFrom = db
      .prepare<[string], number>(
        'SELECT seq FROM audit_entries WHERE created_at >= ? AND is_listed = 1 ORDER BY created_at, seq LIMIT 1',
      )
      .pluck();
    this.lastSeqTo = db
      .prepare<[string], number>(
        `SELECT seq FROM audit_entries WHERE created_at <= ? AND is_listed = 1
         ORDER BY created_at DESC, seq DESC LIMIT 1`,
      )
      .pluck();
    this.selectAssumptionsOf = db.prepare<[string], AssumptionRow>(
      'SELECT * FROM audit_assumptions WHERE entry_id = CAST(? AS TEXT) ORDER BY position',
    );
  }

  /**
   * Where each of these ledger actions stands for Undo, as its audit entry says (an action with no entry is left
   * out): undone, undoable now, an undo of it waiting for approval, or why it has no Undo.
   */
  undoStates(actionIds: readonly string[]): Map<string, ActionUndoState> {
    if (actionIds.length === 0) return new Map();
    this.inbox.file();
    const rows = this.selectUndoStates.all(JSON.stringify(actionIds));
    const waiting = rows.some((row) => row.status === 'completed' && row.is_reversible === 1)
      ? new Set(this.selectWaitingUndos.all())
      : new Set<string>();
    return new Map(rows.map((row) => [row.action_id, undoStateOf(row, waiting.has(row.id))]));
  }

  /** An entry by its id, or by the ledger action it describes. */
  get(id: string): AuditEntry | null {
    this.inbox.file();
    const row = this.selectOne.get(id) ?? this.selectByAction.get(id);
    return row
      ? (this.withNames(this.withApprovalEndings([toEntry(row, this.selectAssumptionsOf.all(row.id))]))[0] ??
          null)
      : null;
  }

  list(filter: AuditFilter & { limit?: number; cursor?: string }): AuditListOutput {
    const limit = filter.limit ?? AUDIT_PAGE.default;
    const rows = this.page(filter, limit + 1);
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return {
      entries: this.withAssumptions(page),
      nextCursor: rows.length > limit && last ? String(last.seq) : null,
    };
  }

  /** Rows only (no assumptions), for exports that stream many pages. */
  page(filter: AuditFilter & { cursor?: string }, limit: number): AuditRow[] {
    // The viewer's indexes are brought up to date first: a page never misses an entry written a moment ago.
    this.search.catchUpAll();
    const conditions: string[] = [];
    const values: Record<string, unknown> = { limit };
    for (const [key, column] of Object.entries(COLUMN_OF)) {
      const value = filter[key as keyof AuditFilter];
      if (value === undefined) continue;
      conditions.push(`e.${column} = @${key}`);
      values[key] = value;
    }
    const { status } = filter;
    if (status !== undefined) values.status = status;
    // A time range becomes a range of `seq` too (found in the time index in O(log n)), so a day a year ago
    // costs what today costs. Entries are appended with the host's clock, so `seq` grows with `created_at`;
    // the exact time conditions stay, so a bound can only leave out a row a clock set back misplaced.
    if (filter.from !== undefined) {
      conditions.push('e.created_at >= @from', 'e.seq >= @seqFrom');
      values.from = new Date(filter.from).toISOString();
      values.seqFrom = this.firstSeqFrom.get(values.from as string) ?? Number.MAX_SAFE_INTEGER;
    }
    if (filter.to !== undefined) {
      conditions.push('e.created_at <= @to', 'e.seq <= @seqTo');
      values.to = new Date(filter.to).toISOString();
      values.seqTo = this.lastSeqTo.get(values.to as string) ?? 0;
    }
    if (filter.cursor !== undefined) {
      conditions.push('e.seq < @cursor');
      values.cursor = Number(filter.cursor);
    }
    const match = filter.q ? toAuditMatch(filter.q) : null;
    if (filter.q && !match) return [];
    // A Status choice of what did not happen walks its own indexes, unless words or a conversation or a run
    // narrow the page more.
    const walksStatus =
      status !== undefined &&
      isAmongFailed(status) &&
      !match &&
      filter.threadId === undefined &&
      filter.runId === undefined;
    if (status !== undefined && !walksStatus) conditions.push(...statusConditions(status));
    let sql: string;
    if (walksStatus) {
      sql = statusPageSql(status, conditions);
    } else if (match) {
      values.match = match;
      const where = ['audit_fts MATCH @match', ...conditions.map((c) => c.replace('e.seq <', 'f.rowid <'))];
      sql = `SELECT e.* FROM audit_fts f JOIN audit_entries e ON e.seq = f.rowid
             WHERE ${where.join(' AND ')} ORDER BY f.rowid DESC LIMIT @limit`;
    } else {
      const index = indexFor(filter);
      // The filter indexes hold listed entries only (migration 17); after the catch-up above, that is all.
      if (index) conditions.push('e.is_listed = 1');
      const where = conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : '';
      sql = `SELECT e.* FROM audit_entries e ${index ? `INDEXED BY ${index}` : ''} ${where}
             ORDER BY e.seq DESC LIMIT @limit`;
    }
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement.all(values) as AuditRow[];
  }

  withAssumptions(rows: readonly AuditRow[]): AuditEntry[] {
    if (rows.length === 0) return [];
    const assumptions = this.selectAssumptions.all(JSON.stringify(rows.map((row) => row.id)));
    const byEntry = new Map<string, AssumptionRow[]>();
    for (const assumption of assumptions) {
      const list = byEntry.get(assumption.entry_id) ?? [];
      list.push(assumption);
      byEntry.set(assumption.entry_id, list);
    }
    return this.withNames(
      this.withApprovalEndings(rows.map((row) => toEntry(row, byEntry.get(row.id) ?? []))),
    );
  }

  /** Gives each call's entry (and each undo's) the names its tool card reads its ids by. */
  private withNames(entries: AuditEntry[]): AuditEntry[] {
    const calls = entries.flatMap((entry) =>
      entry.kind === 'tool_call' || entry.kind === 'undo' ? [entry.id] : [],
    );
    if (calls.length === 0) return entries;
    const found = new Map(
      this.selectNames.all(JSON.stringify(calls)).map((row) => [row.entry_id, namesOf(row.names_json)]),
    );
    return entries.map((entry) => ({ ...entry, ...found.get(entry.id) }));
  }

  /**
   * Says of each entry whether its approval was turned down or expired: only a failed entry's action can have
   * been.
   */
  private withApprovalEndings(entries: AuditEntry[]): AuditEntry[] {
    const failed = entries.flatMap((entry) =>
      entry.status === 'failed' && entry.actionId ? [entry.actionId] : [],
    );
    const endings = new Map(
      failed.length > 0
        ? this.selectApprovalEndings.all(JSON.stringify(failed)).map((row) => [row.action_id, row.status])
        : [],
    );
    return entries.map((entry) => {
      const ending = entry.actionId === null ? undefined : endings.get(entry.actionId);
      return { ...entry, isTurnedDown: ending === 'rejected', isExpired: ending === 'expired' };
    });
  }
}
