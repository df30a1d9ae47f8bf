import { startApprover } from './approver';
import { chaosPrompt } from './chaos-model';
import { createHostApi } from './host-api';
import { startHostProcess } from './host-process';
import type { Rng } from './prng';

/** Where in a cycle the SIGKILL lands: after a drawn delay, or just after an approval was posted. */
export type KillMode = 'timed' | 'after_approval';

export interface CyclePlan {
  newRuns: number[];
  /** Delay of each new run's start after the host is ready, so runs are at different steps when it dies. */
  staggersMs: number[];
  killMode: KillMode;
  /** From ready to SIGKILL when timed; the fallback when no approval shows up in an after-approval cycle. */
  killAfterMs: number;
  /** From an approval post to SIGKILL in an after-approval cycle. */
  killAfterApprovalMs: number;
}

export interface CycleOutcome {
  plan: CyclePlan;
  runIds: string[];
  approvalsPosted: number;
  approveErrors: string[];
  /** What the host logged as errors before it was killed. */
  hostErrors: string[];
  /** Milliseconds from ready to the kill, as it happened. */
  killedAtMs: number;
  startMs: number;
}

/**
 * Draws one cycle: 1–3 new runs, and a kill anywhere from before the first model call (0 ms) to past the end of
 * the slowest run; one cycle in four kills right after an approval is posted instead.
 */
export function planCycle(rng: Rng, firstRun: number, windowMs: number): CyclePlan {
  const count = rng.int(1, 3);
  const newRuns = Array.from({ length: count }, (_, index) => firstRun + index);
  return {
    newRuns,
    staggersMs: newRuns.map(() => rng.int(0, 150)),
    killMode: rng.chance(0.25) ? 'after_approval' : 'timed',
    killAfterMs: rng.int(0, windowMs),
    killAfterApprovalMs: rng.int(0, 15),
  };
}

/** One life of the host: start it, start the new runs, approve what it asks, and SIGKILL it as planned. */
export async function runCycle(
  plan: CyclePlan,
  env: Record<string, string>,
  token: string,
): Promise<CycleOutcome> {
  const startedAt = performance.now();
  const host = await startHostProcess(env);
  const readyAt = performance.now();
  const api = createHostApi(host.url, token);
  const runIds: string[] = [];
  const starts: Promise<void>[] = [];
  const timers: NodeJS.Timeout[] = [];
  let isKilled = false;
  let killNow = (): void => undefined;
  const killed = new Promise<void>((resolve) => {
    killNow = () => {
      isKilled = true;
      resolve();
    };
  });

  const approver = startApprover(api, () => {
    if (plan.killMode === 'after_approval') timers.push(setTimeout(killNow, plan.killAfterApprovalMs));
  });
  const fallbackMs = plan.killMode === 'timed' ? plan.killAfterMs : Math.max(plan.killAfterMs, 2_000);
  timers.push(setTimeout(killNow, fallbackMs));
  plan.newRuns.forEach((k, index) => {
    timers.push(
      setTimeout(() => {
        if (isKilled) return;
        starts.push(
          api.startRun(chaosPrompt(k)).then(
            (runId) => void runIds.push(runId),
            () => undefined,
          ),
        );
      }, plan.staggersMs[index] ?? 0),
    );
  });

  await killed;
  const killedAtMs = performance.now() - readyAt;
  await host.kill();
  for (const timer of timers) clearTimeout(timer);
  await approver.stop();
  await Promise.allSettled(starts);
  return {
    plan,
    runIds,
    approvalsPosted: approver.posted(),
    approveErrors: approver.errors(),
    hostErrors: host.errorLines(),
    killedAtMs,
    startMs: readyAt - startedAt,
  };
}
