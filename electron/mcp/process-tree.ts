import { execFile } from 'node:child_process';

/** How long the processes a server left behind have to exit after SIGTERM, before SIGKILL. */
const GRACE_MS = 2_000;

/**
 * A process found under a server: its pid, and what tells that process from a later one given the same pid (when it
 * started, and its command line).
 */
export interface Leftover {
  pid: number;
  identity: string;
}

interface ProcessRow extends Leftover {
  ppid: number;
}

// "  812   790 Sat Nov  8 01:25:38 2026 node server.js": `lstart` is five words in the C locale.
const PS_LINE = /^\s*(\d+)\s+(\d+)\s+(\S+\s+\S+\s+\d+\s+[\d:]+\s+\d+)\s+(.*)$/;

/** Every process now running, by pid; null where that cannot be read (Windows, or no `ps`). */
function readProcesses(): Promise<Map<number, ProcessRow> | null> {
  if (process.platform === 'win32') return Promise.resolve(null);
  return new Promise((resolve) => {
    execFile(
      'ps',
      ['-A', '-o', 'pid=,ppid=,lstart=,args='],
      { timeout: 5_000, maxBuffer: 16 * 1024 * 1024, env: { ...process.env, LC_ALL: 'C' } },
      (error, stdout) => {
        if (error) return resolve(null);
        const rows = new Map<number, ProcessRow>();
        for (const line of stdout.split('\n')) {
          const [, pid, ppid, started, command] = PS_LINE.exec(line) ?? [];
          if (!pid || !ppid) continue;
          rows.set(Number(pid), { pid: Number(pid), ppid: Number(ppid), identity: `${started} ${command}` });
        }
        resolve(rows);
      },
    );
  });
}

/**
 * The processes under `pid` (children, grandchildren…); empty where they cannot be read. A server started through
 * `npx` or a shell is `npm exec` → `sh` → the server: the SDK stops only the first, so the server itself is found
 * here to be stopped too.
 */
export async function descendantsOf(pid: number): Promise<Leftover[]> {
  const rows = await readProcesses();
  if (!rows) return [];
  const children = new Map<number, Leftover[]>();
  for (const row of rows.values())
    children.set(row.ppid, [...(children.get(row.ppid) ?? []), { pid: row.pid, identity: row.identity }]);
  const found: Leftover[] = [];
  const queue = [...(children.get(pid) ?? [])];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    found.push(next);
    queue.push(...(children.get(next.pid) ?? []));
  }
  return found;
}

/** How often the processes told to stop are looked at, to end the wait once every one is gone. */
const POLL_MS = 100;

/**
 * Stops whichever of `leftovers` still run: SIGTERM now, SIGKILL to those left after a grace period. Answers once
 * every one is gone or was sent SIGKILL, so Deputy's exit can wait for it (a leftover that ignores SIGTERM
 * would otherwise outlive it).
 */
export async function stopLeftovers(leftovers: readonly Leftover[]): Promise<void> {
  if (leftovers.length === 0) return;
  let alive = (await stillThem(leftovers)).filter((leftover) => signal(leftover.pid, 'SIGTERM'));
  for (let waited = 0; alive.length > 0 && waited < GRACE_MS; waited += POLL_MS) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    alive = alive.filter((leftover) => signal(leftover.pid, 0));
  }
  if (alive.length === 0) return;
  for (const leftover of await stillThem(alive)) signal(leftover.pid, 'SIGKILL');
}

/** How long Deputy's exit waits for leftovers to stop: the grace period, and a second to read the process table. */
export const EXIT_WAIT_MS = GRACE_MS + 1_000;

/**
 * Waits for `stopping` (stopLeftovers) at most EXIT_WAIT_MS. A read of the process table is given up to 5 s, and one
 * that hangs must not hold Deputy's exit: what it would have found is left running, as it would be without ps.
 */
export async function withinExitWait(stopping: Promise<void>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const waited = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, EXIT_WAIT_MS);
    timer.unref();
  });
  await Promise.race([stopping, waited]);
  clearTimeout(timer);
}

/**
 * Those of `leftovers` whose pid still belongs to the same process (same start, same command). Seconds pass between
 * reading the tree and each signal: a process that exited may have left its pid to another, which is not Deputy's
 * to stop. Where the table cannot be read now, none is signalled.
 */
async function stillThem(leftovers: readonly Leftover[]): Promise<Leftover[]> {
  const rows = await readProcesses();
  return leftovers.filter((leftover) => rows?.get(leftover.pid)?.identity === leftover.identity);
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
