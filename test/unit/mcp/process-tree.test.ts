import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import {
  descendantsOf,
  EXIT_WAIT_MS,
  stopLeftovers,
  withinExitWait,
} from '../../../electron/mcp/process-tree';
import { isRunning } from '../../support/mcp-kit';

const started: ChildProcess[] = [];
const strays: number[] = [];

afterEach(() => {
  for (const pid of strays.splice(0)) if (isRunning(pid)) process.kill(pid, 'SIGKILL');
  for (const child of started.splice(0)) child.kill('SIGKILL');
});

/** A process as a server's command may leave behind: it runs until stopped, and may ignore SIGTERM. */
async function leftover(ignoresTerm: boolean) {
  const script = `${ignoresTerm ? "process.on('SIGTERM', () => {});" : ''} setInterval(() => {}, 1000); console.log('up');`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'ignore'] });
  started.push(child);
  await once(child.stdout, 'data');
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  // Found as Deputy finds a server's: under its parent, this test.
  const found = (await descendantsOf(process.pid)).find((candidate) => candidate.pid === child.pid);
  if (!found) throw new Error('the leftover was not found under this process');
  return { leftover: found, exited };
}

/**
 * A server's child that becomes another program under the same pid (a shell's `exec`) after `afterMs`: to Deputy
 * that pid now belongs to a process it did not find under the server, as when a pid is reused.
 */
async function becomesAnother(afterMs: number, ignoresTerm: boolean) {
  const inner = `${ignoresTerm ? "trap '' TERM; " : ''}echo up; sleep ${afterMs / 1_000}; exec sleep 30`;
  const parent = spawn('sh', ['-c', `sh -c "${inner}" & wait`], { stdio: ['ignore', 'pipe', 'ignore'] });
  started.push(parent);
  await once(parent.stdout, 'data');
  const leftovers = await descendantsOf(parent.pid ?? 0);
  const shell = leftovers.find((found) => found.identity.includes('exec sleep 30'));
  if (!shell) throw new Error('no inner shell found');
  strays.push(shell.pid);
  /** Whether the shell's pid is now the other program: `afterMs` is when it asks for that, not when it happens. */
  const isAnother = async () => {
    const now = (await descendantsOf(parent.pid ?? 0)).find((found) => found.pid === shell.pid);
    return now !== undefined && now.identity !== shell.identity;
  };
  return { leftovers, pid: shell.pid, isAnother };
}

describe('stopping what a server left behind', () => {
  it('ends a process with SIGTERM, and answers once it is gone', async () => {
    const { leftover: found, exited } = await leftover(false);
    await stopLeftovers([found]);
    expect((await exited)[1]).toBe('SIGTERM');
  });

  it('ends one that ignores SIGTERM with SIGKILL before it answers, so an exit that waits leaves nothing running', async () => {
    const { leftover: found, exited } = await leftover(true);
    let isAnswered = false;
    const stopped = stopLeftovers([found]).then(() => (isAnswered = true));
    // It ignored SIGTERM and still runs: the answer waits for it.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(isAnswered).toBe(false);
    const [, signal] = await exited;
    expect(signal).toBe('SIGKILL');
    await stopped;
    expect(isAnswered).toBe(true);
  });

  it('answers at once for processes already gone', async () => {
    await expect(stopLeftovers([{ pid: 2 ** 22 + 7, identity: 'gone' }])).resolves.toBeUndefined();
  });

  it('leaves alone a pid that belongs to another process by the time it is stopped', async () => {
    const { leftovers, pid, isAnother } = await becomesAnother(300, false);
    await expect.poll(isAnother, { timeout: 5_000 }).toBe(true);
    await stopLeftovers(leftovers);
    expect(isRunning(pid)).toBe(true);
  });

  it('sends no SIGKILL to a pid that became another process during the grace period', async () => {
    const { leftovers, pid } = await becomesAnother(600, true);
    await stopLeftovers(leftovers);
    // A process killed a moment ago may not be reaped yet: it is looked at once its parent had time to.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(isRunning(pid)).toBe(true);
  });
});

describe('withinExitWait', () => {
  it('holds an exit until the leftovers are stopped, and no longer than its bound when a read of ps hangs', async () => {
    let settle = (): void => {};
    const stopping = new Promise<void>((resolve) => (settle = resolve));
    const began = Date.now();
    setTimeout(() => settle(), 50);
    await withinExitWait(stopping);
    expect(Date.now() - began).toBeLessThan(EXIT_WAIT_MS);

    const hanging = new Promise<void>(() => {});
    const hungAt = Date.now();
    await withinExitWait(hanging);
    expect(Date.now() - hungAt).toBeGreaterThanOrEqual(EXIT_WAIT_MS - 20);
  });
});
