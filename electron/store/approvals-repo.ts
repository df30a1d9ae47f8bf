import { redactedJson, redactKnownSecretsJson, redactNullable, redactSecrets } from '../vault/redactor';
import {
  ApprovalDecider,
  type AlwaysAllowScope,
  type Approval,
  type ApprovalPreview,
  type ApprovalStatus,
} from '../../shared/contract';
import type { Db } from './database';
import { asRecord, parseStoredJson } from './json';

interface ApprovalRow {
  id: string;
  run_id: string;
  thread_id: string;
  action_id: string;
  tool: string;
  args_json: string;
  fingerprint: string;
  status: ApprovalStatus;
  level: 'confirm' | 'review';
  reason: string;
  rule: string;
  risk: Approval['risk'];
  preview_json: string;
  preview_text: string;
  intent: string | null;
  reasoning: string | null;
  confidence: number | null;
  assumptions_json: string;
  scopes_json: string;
  created_at: string;
  expires_at: string;
  decided_at: string | null;
  decision_note: string | null;
  /** Null on rows settled before migration 25, and while pending. */
  decided_by: string | null;
}

/** A stored approval; the tool's argument schema is added by whoever has the registry. */
export type StoredApproval = Omit<Approval, 'argsSchema'>;

const stringList = (json: string): string[] => {
  const value = parseStoredJson(json);
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
};

const toApproval = (row: ApprovalRow): StoredApproval => ({
  id: row.id,
  runId: row.run_id,
  threadId: row.thread_id,
  actionId: row.action_id,
  tool: row.tool,
  args: asRecord(parseStoredJson(row.args_json)),
  fingerprint: row.fingerprint,
  status: row.status,
  level: row.level,
  reason: row.reason,
  rule: row.rule,
  risk: row.risk,
  preview: parseStoredJson(row.preview_json) as ApprovalPreview,
  previewText: row.preview_text,
  intent: row.intent,
  reasoning: row.reasoning,
  confidence: row.confidence,
  assumptions: stringList(row.assumptions_json),
  alwaysAllowScopes: (parseStoredJson(row.scopes_json) as AlwaysAllowScope[] | undefined) ?? [],
  createdAt: row.created_at,
  expiresAt: row.expires_at,
  decidedAt: row.decided_at,
  decisionNote: row.decision_note,
  ...decidedBy(row.decided_by),
});

/** Who settled the approval, when its row says so in a way this version knows. */
function decidedBy(stored: string | null): Pick<StoredApproval, 'decidedBy'> {
  const known = ApprovalDecider.safeParse(stored);
  return known.success ? { decidedBy: known.data } : {};
}

/** An undo taken from the audit trail is not a call of the conversation (its card is the original's). */
const NOT_AN_UNDO =
  "NOT EXISTS (SELECT 1 FROM actions a WHERE a.id = approvals.action_id AND a.call_id LIKE 'undo:%')";

export class ApprovalsRepo {
  private readonly insertApproval;
  private readonly selectOne;
  private readonly selectByAction;
  private readonly reopenStmt;
  private readonly selectPending;
  private readonly selectAll;
  private readonly selectExpired;
  private readonly selectPendingByThread;
  private readonly selectByThread;
  private readonly selectPendingByToolPrefix;
  private readonly claimStmt;
  private readonly updateArgs;

  constructor(db: Db) {
    this.insertApproval = db.prepare(
      `INSERT INTO approvals (id, run_id, thread_id, action_id, tool, args_json, fingerprint, status, level, reason, rule,
         risk, preview_json, preview_text, intent, reasoning, confidence, assumptions_json, scopes_json, created_at, expires_at)
       VALUES (@id, @runId, @threadId, @actionId, @tool, @args, @fingerprint, 'pending', @level, @reason, @rule,
         @risk, @preview, @previewText, @intent, @reasoning, @confidence, @assumptions, @scopes, @createdAt, @expiresAt)`,
    );
    this.selectOne = db.prepare<[string], ApprovalRow>('SELECT * FROM approvals WHERE id = ?');
    this.selectByAction = db.prepare<[string], ApprovalRow>('SELECT * FROM approvals WHERE action_id = ?');
    this.selectPending = db.prepare<[number], ApprovalRow>(
      `SELECT * FROM approvals WHERE status = 'pending' ORDER BY created_at DESC LIMIT ?`,
    );
    this.selectAll = db.prepare<[number], ApprovalRow>(
      'SELECT * FROM approvals ORDER BY created_at DESC LIMIT ?',
    );
    this.selectExpired = db.prepare<[string], ApprovalRow>(
      `SELECT * FROM approvals WHERE status = 'pending' AND expires_at <= ? ORDER BY expires_at`,
    );
    this.selectPendingByToolPrefix = db.prepare<[{ prefix: string }], ApprovalRow>(
      // substr, not LIKE: "_" in a tool's name is a letter, not a wildcard.
      `SELECT * FROM approvals WHERE status = 'pending' AND substr(tool, 1, length(@prefix)) = @prefix
       ORDER BY created_at`,
    );
    this.selectPendingByThread = db.prepare<[string], ApprovalRow>(
      // An undo waiting for approval belongs to the audit trail, not to the conversation: a new message there
      // does not answer it.
      `SELECT * FROM approvals WHERE status = 'pending' AND thread_id = ? AND ${NOT_AN_UNDO} ORDER BY created_at`,
    );
    this.selectByThread = db.prepare<[string], ApprovalRow>(
      `SELECT * FROM approvals WHERE thread_id = ? AND ${NOT_AN_UNDO} ORDER BY created_at`,
    );
    // The one place an approval leaves `pending`: the WHERE makes a second decision a no-op, so it runs once.
    this.claimStmt = db.prepare(
      `UPDATE approvals SET status = @status, decided_at = @now, decision_note = @note, decided_by = @by
       WHERE id = @id AND status = 'pending'`,
    );
    this.reopenStmt = db.prepare(
      `UPDATE approvals SET status = 'pending', args_json = @args, fingerprint = @fingerprint, level = @level,
         reason = @reason, rule = @rule, preview_json = @preview, preview_text = @previewText,
         created_at = @createdAt, expires_at = @expiresAt, decided_at = NULL, decision_note = NULL,
         decided_by = NULL
       WHERE id = @id AND status <> 'pending'`,
    );
    this.updateArgs = db.prepare(
      `UPDATE approvals SET args_json = ?, fingerprint = ? WHERE id = ? AND status = 'pending'`,
    );
  }

  create(approval: StoredApproval): void {
    this.insertApproval.run({
      id: approval.id,
      runId: approval.runId,
      threadId: approval.threadId,
      actionId: approval.actionId,
      tool: approval.tool,
      args: redactKnownSecretsJson(approval.args),
      fingerprint: approval.fingerprint,
      level: approval.level,
      reason: approval.reason,
      rule: approval.rule,
      risk: approval.risk,
      preview: redactedJson(approval.preview),
      previewText: redactSecrets(approval.previewText),
      intent: approval.intent,
      reasoning: redactNullable(approval.reasoning),
      confidence: approval.confidence,
      assumptions: redactedJson(approval.assumptions),
      scopes: redactedJson(approval.alwaysAllowScopes),
      createdAt: approval.createdAt,
      expiresAt: approval.expiresAt,
    });
  }

  get(id: string): StoredApproval | null {
    const row = this.selectOne.get(id) ?? this.selectByAction.get(id);
    return row ? toApproval(row) : null;
  }

  pending(limit = 200): StoredApproval[] {
    return this.selectPending.all(limit).map(toApproval);
  }

  all(limit = 200): StoredApproval[] {
    return this.selectAll.all(limit).map(toApproval);
  }

  expiredBy(now: string): StoredApproval[] {
    return this.selectExpired.all(now).map(toApproval);
  }

  /** What waits for a tool whose name starts with `prefix` (an MCP server's tools: `server__`). */
  pendingForToolsStartingWith(prefix: string): StoredApproval[] {
    return this.selectPendingByToolPrefix.all({ prefix }).map(toApproval);
  }

  pendingInThread(threadId: string): StoredApproval[] {
    return this.selectPendingByThread.all(threadId).map(toApproval);
  }

  /** What one run of the conversation still waits on, oldest first (its undos are the audit trail's, not its own). */
  pendingInRun(run: { threadId: string; runId: string }): StoredApproval[] {
    return this.pendingInThread(run.threadId).filter((approval) => approval.runId === run.runId);
  }

  /** Every approval the conversation's calls asked for, decided or not, oldest first. */
  inThread(threadId: string): StoredApproval[] {
    return this.selectByThread.all(threadId).map(toApproval);
  }

  /** Moves a pending approval to its decision, taken `by` the person or Deputy; false when it was no longer pending. */
  claim(
    id: string,
    status: Exclude<ApprovalStatus, 'pending'>,
    now: string,
    note: string | null,
    by: ApprovalDecider,
  ): boolean {
    return this.claimStmt.run({ id, status, now, note: redactNullable(note), by }).changes === 1;
  }

  /**
   * Asks again about an action already decided once: after a crash, an approved side effect whose outcome
   * cannot be found goes back to the user. The earlier decision stays in the audit trail.
   */
  reopen(approval: StoredApproval): boolean {
    return (
      this.reopenStmt.run({
        id: approval.id,
        args: redactKnownSecretsJson(approval.args),
        fingerprint: approval.fingerprint,
        level: approval.level,
        reason: approval.reason,
        rule: approval.rule,
        preview: redactedJson(approval.preview),
        previewText: redactSecrets(approval.previewText),
        createdAt: approval.createdAt,
        expiresAt: approval.expiresAt,
      }).changes === 1
    );
  }

  replaceArgs(id: string, args: Record<string, unknown>, fingerprint: string): boolean {
    return this.updateArgs.run(redactKnownSecretsJson(args), fingerprint, id).changes === 1;
  }
}
