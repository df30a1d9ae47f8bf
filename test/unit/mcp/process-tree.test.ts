import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { stopLeftovers } from '../../../electron/mcp/process-tree';

/** A process as a server's command may leave behind: it runs until stopped, and may ignore SIGTERM. */
async function leftover(ignoresTerm: boolean) {
  const script = `${ignoresTerm ? "process.on('SIGTERM', () => {});" : ''} setInterval(() => {}, 1000); console.log('up');`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'ignore'] });
  await once(child.stdout, 'data');
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  return { pid: child.pid ?? 0, exited };
}

describe('stopping what a server left behind', () => {
  it('ends a process with SIGTERM, and answers once it is gone', async () => {
    const { pid, exited } = await leftover(false);
    await stopLeftovers([pid]);
    expect((await exited)[1]).toBe('SIGTERM');
  });

  it('ends one that ignores SIGTERM with SIGKILL before it answers, so an exit that waits leaves nothing running', async () => {
    const { pid, exited } = await leftover(true);
    let isAnswered = false;
    const stopped = stopLeftovers([pid]).then(() => (isAnswered = true));
    // It ignored SIGTERM and still runs: the answer waits for it.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(isAnswered).toBe(false);
    const [, signal] = await exited;
    expect(signal).toBe('SIGKILL');
    await stopped;
    expect(isAnswered).toBe(true);
  });

  it('answers at once for processes already gone', async () => {
    await expect(stopLeftovers([2 ** 22 + 7])).resolves.toBeUndefined();
  });
});
