import { startApprover } from './approver';
import { SIDE_EFFECT_TOOLS } from './chaos-model';
import { createHostApi } from './host-api';
import { startHostProcess } from './host-process';
import { readLedger } from './ledger';

const POLL_MS = 250;

export interface SettleOutcome {
  /** Every run finished (completed or failed). */
  isSettled: boolean;
  /** Why the wait ended: all finished, nothing moved for a while, or the time budget ran out. */
  ending: 'settled' | 'no_progress' | 'budget';
  elapsedMs: number;
  approvalsPosted: number;
  approveErrors: string[];
  hostErrors: string[];
  /** The host stopped on SIGTERM within its timeout. */
  didStopCleanly: boolean;
}

/**
 * The last life of the host, not killed: it resumes what it can while the approver approves everything it
 * asks (including "did this happen?" questions about effects it could not confirm), until every run is
 * finished, nothing has changed for `idleMs`, or `budgetMs` has passed. Then it is stopped with SIGTERM.
 */
export async function settle(
  env: Record<string, string>,
  token: string,
  dataDir: string,
  limits: { budgetMs: number; idleMs: number },
): Promise<SettleOutcome> {
  const startedAt = performance.now();
  const host = await startHostProcess(env);
  const approver = startApprover(createHostApi(host.url, token), () => undefined);
  let ending: SettleOutcome['ending'] = 'budget';
  let lastPicture = '';
  let lastChangeAt = performance.now();
  let didStopCleanly: boolean;
  try {
    while (performance.now() - startedAt < limits.budgetMs) {
      const ledger = readLedger(dataDir, SIDE_EFFECT_TOOLS);
      const open = ledger.runs.filter((run) => run.status !== 'completed' && run.status !== 'failed');
      if (open.length === 0 && !approver.isBusy()) {
        ending = 'settled';
        break;
      }
      const picture = JSON.stringify([
        ledger.runs.map((run) => run.status),
        ledger.actions.map((action) => action.state),
        [...ledger.runsWithPendingApproval].sort(),
        approver.posted(),
      ]);
      if (picture !== lastPicture) {
        lastPicture = picture;
        lastChangeAt = performance.now();
      } else if (performance.now() - lastChangeAt > limits.idleMs && !approver.isBusy()) {
        ending = 'no_progress';
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  } finally {
    // An approval answer arrives only when its run has gone as far as it can: stop the host first, so a run
    // that never ends cannot hold the harness.
    const approverStopped = approver.stop();
    didStopCleanly = await host.stop();
    await approverStopped;
  }
  return {
    isSettled: ending === 'settled',
    ending,
    elapsedMs: performance.now() - startedAt,
    approvalsPosted: approver.posted(),
    approveErrors: approver.errors(),
    hostErrors: host.errorLines(),
    didStopCleanly,
  };
}
