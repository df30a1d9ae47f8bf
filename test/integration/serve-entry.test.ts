import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const dataDir = mkdtempSync(join(tmpdir(), 'deputy-serve-'));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

interface Launched {
  child: ChildProcess;
  /** Resolves with what it printed once it says what to open (it is listening), or once it exits. */
  ready: Promise<{ output: string; exitCode: number | null }>;
}

/** Starts `electron/serve.ts` on the test's data folder. */
function launch(args: string[], env: Record<string, string> = {}): Launched {
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !key.startsWith('DEPUTY_') && !key.startsWith('GEMINI_')),
  );
  const child = spawn(process.execPath, ['--import', 'tsx', 'electron/serve.ts', ...args], {
    cwd: ROOT,
    env: { ...inherited, DEPUTY_DATA_DIR: dataDir, DEPUTY_PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  const ready = new Promise<{ output: string; exitCode: number | null }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start within 20 s:\n${output}`)), 20_000);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      if (/^Open http/m.test(output)) {
        clearTimeout(timer);
        resolve({ output, exitCode: null });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ output, exitCode: code });
    });
  });
  return { child, ready };
}

const stopped = (child: ChildProcess, signal: NodeJS.Signals): Promise<void> =>
  new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill(signal);
  });

/** Starts `electron/serve.ts` until it says it listens and what to open, then stops it; returns what it printed. */
async function startOnce(args: string[], env: Record<string, string> = {}): Promise<string> {
  const { child, ready } = launch(args, env);
  const { output, exitCode } = await ready;
  if (exitCode !== null) throw new Error(`it exited (${exitCode}):\n${output}`);
  await stopped(child, 'SIGTERM');
  return output;
}

describe('npm run serve, as a person first meets it', () => {
  it('says whether Gemini is configured, shows the token once, and again on --show-token', async () => {
    const first = await startOnce([]);
    expect(first).toMatch(/Gemini: no key yet\. Paste one in Settings → Connections/);
    const token = /API token \(kept encrypted in the data folder's vault\): (\S+)/.exec(first)?.[1];
    expect(token).toBeTruthy();

    const second = await startOnce([], { GEMINI_API_KEY: 'AIzaSyServeEntry-test-key-000000000000000' });
    expect(second).toMatch(/Gemini: a key is configured\./);
    expect(second).not.toContain(token);
    expect(second).toContain('--show-token');

    const third = await startOnce(['--show-token']);
    expect(third).toContain(`#token=${token}`);
  }, 60_000);

  it('a second host on the same data folder is refused in words, and a killed one leaves no lock behind', async () => {
    const first = launch([]);
    expect((await first.ready).exitCode).toBeNull();

    const second = await launch([]).ready;
    expect(second.exitCode).toBe(1);
    expect(second.output).toContain(
      `[deputy] could not start: Another Deputy (the app, or npm run serve) is already using the data folder ${dataDir}. Quit it first.\n` +
        '[deputy] To run a second one beside it, give it its own folder with DEPUTY_DATA_DIR.',
    );

    // Killed outright, with no chance to clean up: the operating system drops its lock.
    await stopped(first.child, 'SIGKILL');
    const third = await startOnce([]);
    expect(third).toMatch(/^Open http/m);
  }, 60_000);

  it('a DEPUTY_MODEL that is not a model id stops the start with a sentence naming it', async () => {
    const started = await launch([], { DEPUTY_MODEL: 'gemini pro!' }).ready;
    expect(started.exitCode).toBe(1);
    expect(started.output).toBe(
      '[deputy] could not start: DEPUTY_MODEL must be a Gemini model id, such as gemini-2.5-flash or ' +
        'models/gemini-2.5-pro, not “gemini pro!”.\n',
    );
  }, 30_000);
});
