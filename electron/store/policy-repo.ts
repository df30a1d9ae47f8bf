import { redactedJson, redactNullable } from '../vault/redactor';
import type { Db } from './database';

/** What the policy reads from history: rate-limit windows, who the user has written to, and the audit trail. */
export class PolicyRepo {
  private readonly countActions;
  private readonly countExternal;
  private readonly sumTokens;
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
    // Planned once, with the cast (see database.ts): it runs before every model turn.
    this.sumTokens = db.prepare<[string], { n: number | null }>(
      'SELECT sum(tokens) AS n FROM model_usage WHERE timestamp > CAST(? AS TEXT)',
    );
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

  tokensSince(since: string): number {
    return this.sumTokens.get(since)?.n ?? 0;
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
