import { redactedJson, redactNullable } from '../vault/redactor';
import type { Db } from './database';

/** How long a carried-forward token sum is trusted before it is counted afresh. */
const RECOUNT_MS = 30_000;

/** What the policy reads from history: rate-limit windows, who the user has written to, and the audit trail. */
export class PolicyRepo {
  private readonly countActions;
  private readonly countExternal;
  private readonly sumTokens;
  private readonly sumAdded;
  private readonly sumLeft;
  /** The last hour's sum, kept up to date from the rows added and the rows that left the window since. */
  private window: { since: string; tokens: number; lastId: number; countedAt: number } | null = null;
  private readonly insertUsage;
  private readonly selectRecipient;
  private readonly insertRecipient;
  private readonly insertAudit;

  constructor(db: Db) {
    // A call counts once it may have taken effect: approved to run, running, done, or not known either way.
    this.countActions = db.prepare<[string], { n: number }>(
      `SELECT count(*) AS n FROM actions WHERE has_side_effects = 1 AND created_at > ?
       AND state IN ('approved','started','committed','unknown')`,
    );
    this.countExternal = db.prepare<[string], { n: number }>(
      `SELECT count(*) AS n FROM actions WHERE is_external = 1 AND created_at > ? AND state IN ('approved','started','committed','unknown')`,
    );
    // Planned once, with the casts (see database.ts): they run before every model turn and tool call.
    this.sumTokens = db.prepare<[string], { n: number | null; last: number | null }>(
      `SELECT sum(tokens) AS n, (SELECT max(id) FROM model_usage) AS last
       FROM model_usage WHERE timestamp > CAST(? AS TEXT)`,
    );
    this.sumAdded = db.prepare<[string, number], { n: number | null; last: number | null }>(
      `SELECT sum(CASE WHEN timestamp > CAST(? AS TEXT) THEN tokens END) AS n, max(id) AS last
       FROM model_usage WHERE id > CAST(? AS INTEGER)`,
    );
    this.sumLeft = db
      .prepare<[string, string, number], number | null>(
        `SELECT sum(tokens) FROM model_usage
         WHERE timestamp > CAST(? AS TEXT) AND timestamp <= CAST(? AS TEXT) AND id <= CAST(? AS INTEGER)`,
      )
      .pluck();
    this.insertUsage = db.prepare('INSERT INTO model_usage (run_id, timestamp, tokens) VALUES (?, ?, ?)');
    this.selectRecipient = db.prepare<[string], { address: string }>(
      'SELECT address FROM known_recipients WHERE address = ?',
    );
    this.insertRecipient = db.prepare(
      'INSERT INTO known_recipients (address, first_contacted_at) VALUES (?, ?) ON CONFLICT (address) DO NOTHING',
    );
    this.insertAudit = db.prepare(
      `INSERT INTO audit (timestamp, run_id, action_id, tool, event, decision, rule, reason, detail_json)
       VALUES (@timestamp, @runId, @actionId, @tool, @event, @decision, @rule, @reason, @detail)`,
    );
  }

  actionsSince(since: string): number {
    return this.countActions.get(since)?.n ?? 0;
  }

  externalCallsSince(since: string): number {
    return this.countExternal.get(since)?.n ?? 0;
  }

  /**
   * Tokens recorded after `since`. Usage rows are only ever added, so the sum is carried forward: plus the rows
   * added since (by id), minus the rows the window's start passed. It is counted afresh when the window moves
   * back, and every half minute, so even a row rolled back with a failed transaction counts for no longer.
   */
  tokensSince(since: string): number {
    const window = this.window;
    const now = Date.now();
    if (!window || since < window.since || now - window.countedAt > RECOUNT_MS) {
      const counted = this.sumTokens.get(since);
      this.window = { since, tokens: counted?.n ?? 0, lastId: counted?.last ?? 0, countedAt: now };
      return this.window.tokens;
    }
    const added = this.sumAdded.get(since, window.lastId);
    const left = since > window.since ? (this.sumLeft.get(window.since, since, window.lastId) ?? 0) : 0;
    window.tokens += (added?.n ?? 0) - left;
    window.lastId = added?.last ?? window.lastId;
    window.since = since;
    return window.tokens;
  }

  recordTokens(runId: string, now: string, tokens: number): void {
    this.insertUsage.run(runId, now, tokens);
  }

  isKnownRecipient(address: string): boolean {
    return this.selectRecipient.get(address.trim().toLowerCase()) !== undefined;
  }

  rememberRecipients(addresses: readonly string[], now: string): void {
    for (const address of addresses) this.insertRecipient.run(address.trim().toLowerCase(), now);
  }

  audit(entry: {
    timestamp: string;
    runId: string | null;
    actionId: string | null;
    tool: string | null;
    event: string;
    decision: string | null;
    rule: string | null;
    reason: string | null;
    detail?: unknown;
  }): void {
    this.insertAudit.run({
      ...entry,
      reason: redactNullable(entry.reason),
      detail: entry.detail === undefined ? null : redactedJson(entry.detail),
    });
  }
}
