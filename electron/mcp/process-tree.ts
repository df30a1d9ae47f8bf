import { execFile } from 'node:child_process';

/** How long the processes a server left behind have to exit after SIGTERM, before SIGKILL. */
const GRACE_MS = 2_000;

/**
 * The processes under `pid` (children, grandchildren…), read from `ps`; empty where that cannot be read (Windows,
 * or no `ps`). A server started through `npx` or a shell is `npm exec` → `sh` → the server: the SDK stops only the
 * first, so the server itself is found here to be stopped too.
 */
export function descendantsOf(pid: number): Promise<number[]> {
  if (process.platform === 'win32') return Promise.resolve([]);
  return new Promise((resolve) => {
    execFile('ps', ['-A', '-o', 'pid=,ppid='], { timeout: 5_000 }, (error, stdout) => {
      if (error) return resolve([]);
      const children = new Map<number, number[]>();
      for (const line of stdout.split('\n')) {
        const [child, parent] = line.trim().split(/\s+/).map(Number);
        if (!child || !parent) continue;
        children.set(parent, [...(children.get(parent) ?? []), child]);
      }
      const found: number[] = [];
      const queue = [...(children.get(pid) ?? [])];
      for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
        found.push(next);
        queue.push(...(children.get(next) ?? []));
      }
      resolve(found);
    });
  });
}

/** How often the processes told to stop are looked at, to end the wait once every one is gone. */
const POLL_MS = 100;

/**
 * Stops whichever of `pids` still run: SIGTERM now, SIGKILL to those left after a grace period. Answers once
 * every one is gone or was sent SIGKILL, so Deputy's exit can wait for it (a leftover that ignores SIGTERM
 * would otherwise outlive it).
 */
export async function stopLeftovers(pids: readonly number[]): Promise<void> {
  let alive = pids.filter((pid) => signal(pid, 'SIGTERM'));
  for (let waited = 0; alive.length > 0 && waited < GRACE_MS; waited += POLL_MS) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    alive = alive.filter((pid) => signal(pid, 0));
  }
  for (const pid of alive) signal(pid, 'SIGKILL');
}

function signal(pid: number, name: NodeJS.Signals | 0): boolean {
  try {
    process.kill(pid, name);
    return true;
  } catch {
    // Already gone (ESRCH), or not ours to stop.
    return false;
  }
}
