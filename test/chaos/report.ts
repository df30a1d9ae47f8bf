import type { Duplicate, StuckRun } from './checks';
import type { LostCommit } from './history';
import type { ReaskedTurn } from './ledger';

/** What `npm run test:chaos` found; written as JSON with `--report` and summed up on the console. */
export interface Counted {
  text: string;
  count: number;
}

export interface ChaosReport {
  ok: boolean;
  seed: string;
  cyclesAsked: number;
  cyclesDone: number;
  elapsedSeconds: number;
  /** The database's user_version at the end (4 and later: ledger states). */
  schemaVersion: number | null;
  runs: { started: number; byStatus: Record<string, number> };
  /** Why the failed runs failed ("code: message"), most frequent first: finished, but worth reading. */
  failures: Counted[];
  /** What the host logged as errors across all its lives, ids blanked out, most frequent first. */
  hostErrors: Counted[];
  sideEffects: { mail: number; events: number; posts: number };
  kills: { total: number; afterApproval: number; medianAfterReadyMs: number | null };
  approvalsPosted: number;
  /** Approvals the host refused with an HTTP error (first few). */
  approveErrors: string[];
  /** Model turns asked more than once: expected when a kill lands mid-turn; the host logs what it received. */
  turnsAskedAgain: number;
  /** Effects at the fakes that the final ledger does not hold as committed for their run and tool. */
  uncommittedEffects: number;
  duplicates: { count: number; details: Duplicate[] };
  lost: { count: number; details: LostCommit[] };
  stuck: { count: number; details: StuckRun[] };
  /** Model turns started again after their answer was logged (the issue: never). */
  reaskedAfterLogged: { count: number; details: ReaskedTurn[] };
  final: { ending: string; seconds: number; didStopCleanly: boolean } | null;
  /** Set when the harness itself could not do its job: the figures are then incomplete. */
  harnessError: string | null;
  /** Kept when asked (--keep) or when something was found. */
  dataDir: string | null;
}

const SHOWN = 5;

export function formatReport(report: ChaosReport): string {
  const lines = [
    `chaos ${report.ok ? 'PASSED' : 'FAILED'} — seed ${report.seed}, ${report.cyclesDone}/${report.cyclesAsked} cycles in ${report.elapsedSeconds.toFixed(1)} s`,
    `  runs: ${report.runs.started} started; ${Object.entries(report.runs.byStatus)
      .map(([status, count]) => `${count} ${status}`)
      .join(', ')}`,
    ...report.failures.slice(0, SHOWN).map((failure) => `    failed ×${failure.count}: ${failure.text}`),
    `  side effects at the fakes: ${report.sideEffects.mail} mails, ${report.sideEffects.events} events, ${report.sideEffects.posts} Slack posts`,
    `  kills: ${report.kills.total} (SIGKILL; ${report.kills.afterApproval} right after an approval; median ${report.kills.medianAfterReadyMs ?? '-'} ms after ready)`,
    `  approvals posted: ${report.approvalsPosted}; refused: ${report.approveErrors.length}; model turns asked again (any cause): ${report.turnsAskedAgain}; effects not committed in the ledger: ${report.uncommittedEffects}`,
    `  duplicate side effects: ${report.duplicates.count}`,
    ...report.duplicates.details
      .slice(0, SHOWN)
      .map(
        (duplicate) =>
          `    ${duplicate.tool} "${duplicate.marker}" ×${duplicate.count} (run ${duplicate.runIds.join(', ') || '?'}; keys ${duplicate.keys.join(', ')}); ledger: ${duplicate.ledger
            .map((trail) => `${trail.callId} ${trail.states.join(' → ')}`)
            .join('; ')}`,
      ),
    `  committed actions lost: ${report.lost.count}`,
    ...report.lost.details
      .slice(0, SHOWN)
      .map((lost) => `    ${lost.tool} ${lost.actionId} (run ${lost.runId}): ${lost.detail}`),
    `  runs neither terminal nor resumable: ${report.stuck.count}`,
    ...stuckPatterns(report.stuck.details).map(([pattern, count]) => `    ×${count} ${pattern}`),
    ...report.stuck.details
      .slice(0, SHOWN)
      .map(
        (stuck) =>
          `    ${stuck.runId} "${stuck.prompt}": ${stuck.status}; actions ${stuck.actions.join(', ') || 'none'}; approvals ${stuck.approvals.join(', ') || 'none'}`,
      ),
  ];
  lines.push(`  model turns asked again after their answer was logged: ${report.reaskedAfterLogged.count}`);
  lines.push(
    ...report.reaskedAfterLogged.details
      .slice(0, SHOWN)
      .map((turn) => `    run ${turn.runId}, turn ${turn.turn}`),
  );
  if (report.final)
    lines.push(
      `  final life: ${report.final.ending} after ${report.final.seconds.toFixed(1)} s${report.final.didStopCleanly ? '' : ' (did not stop on SIGTERM)'}`,
    );
  if (report.hostErrors.length > 0) {
    lines.push(`  host error log (${report.hostErrors.reduce((sum, error) => sum + error.count, 0)} lines):`);
    lines.push(...report.hostErrors.slice(0, SHOWN).map((error) => `    ×${error.count} ${error.text}`));
  }
  if (report.approveErrors.length > 0) lines.push(`  first refusal: ${report.approveErrors[0]}`);
  if (report.harnessError) lines.push(`  HARNESS ERROR: ${report.harnessError}`);
  if (report.dataDir) lines.push(`  data folder kept: ${report.dataDir}`);
  return lines.join('\n');
}

/** Stuck runs grouped by where they stopped (status, last action, last approval), most frequent first. */
export function stuckPatterns(stuck: readonly StuckRun[]): [string, number][] {
  const counts = new Map<string, number>();
  for (const run of stuck) {
    const pattern = `${run.status}, last action ${run.actions.at(-1) ?? 'none'}, last approval ${run.approvals.at(-1) ?? 'none'}`;
    counts.set(pattern, (counts.get(pattern) ?? 0) + 1);
  }
  return [...counts.entries()].sort((a, b) => b[1] - a[1]);
}

const ID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/** Counts texts with their ids blanked out, so the same failure in many runs reads as one line. */
export function countDistinct(texts: readonly string[]): Counted[] {
  const counts = new Map<string, number>();
  for (const text of texts) {
    const key = text.replace(ID, '<id>');
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts.entries()].map(([text, count]) => ({ text, count })).sort((a, b) => b.count - a.count);
}
