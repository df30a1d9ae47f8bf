import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..', '..');
const START_TIMEOUT_MS = 60_000;

export interface RunningHost {
  /** `http://127.0.0.1:<port>` */
  url: string;
  token: string;
  dataDir: string;
  /** Everything the host printed so far, for failure messages. */
  output(): string;
  stop(): Promise<void>;
}

export interface HostOptions {
  /** The fake Gemini's base URL. */
  geminiUrl?: string;
  /** Leave out to start a host with no Gemini key configured. */
  geminiApiKey?: string;
  /** Reuse a data folder (e.g. to restart a host); by default each host gets a fresh one, removed on stop. */
  dataDir?: string;
  /** More environment for the host, e.g. a fake Google's or Slack's `env`. */
  env?: Record<string, string>;
}

export function assertRendererBuilt(): void {
  if (!existsSync(join(REPO_ROOT, 'out', 'renderer', 'index.html'))) {
    throw new Error(
      'out/renderer is missing: run "npm run build:renderer" (npm run test:e2e does it first).',
    );
  }
}

// The developer's own shell must not leak a real key, model or data folder into a test host.
const INHERITED_SETTINGS = new Set([
  'GEMINI_API_KEY',
  'DEPUTY_GEMINI_BASE_URL',
  'DEPUTY_MODEL',
  'DEPUTY_API_TOKEN',
  'DEPUTY_PORT',
  'DEPUTY_DATA_DIR',
  'DEPUTY_GOOGLE_CLIENT_ID',
  'DEPUTY_GOOGLE_CLIENT_SECRET',
  'DEPUTY_GOOGLE_API_ROOT',
  'DEPUTY_GOOGLE_OAUTH_BASE',
  'DEPUTY_SLACK_CLIENT_ID',
  'DEPUTY_SLACK_CLIENT_SECRET',
  'DEPUTY_SLACK_API_URL',
  'DEPUTY_SLACK_OAUTH_BASE',
]);

function cleanEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([key]) => !INHERITED_SETTINGS.has(key)));
}

function waitForExit(child: ChildProcess, timeoutMs: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolveExit) => {
    const timer = setTimeout(() => resolveExit(false), timeoutMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolveExit(true);
    });
  });
}

/**
 * Starts `electron/serve.ts` with tsx and waits until it says where it listens. It binds port 0 itself: a port
 * probed free here could be taken by another process before a slow start reaches it.
 */
export async function startHost(options: HostOptions = {}): Promise<RunningHost> {
  assertRendererBuilt();
  const ownsDataDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'deputy-e2e-')));
  const token = randomBytes(24).toString('base64url');
  const env: NodeJS.ProcessEnv = {
    ...cleanEnv(),
    DEPUTY_DATA_DIR: dataDir,
    DEPUTY_PORT: '0',
    DEPUTY_API_TOKEN: token,
    ...(options.geminiApiKey !== undefined && { GEMINI_API_KEY: options.geminiApiKey }),
    ...(options.geminiUrl !== undefined && { DEPUTY_GEMINI_BASE_URL: options.geminiUrl }),
    ...options.env,
  };
  const child = spawn(process.execPath, ['--import', 'tsx', 'electron/serve.ts'], {
    cwd: REPO_ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));

  let url = '';
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      if (!(await waitForExit(child, 5_000))) {
        child.kill('SIGKILL');
        await waitForExit(child, 5_000);
      }
    }
    if (ownsDataDir) await rm(dataDir, { recursive: true, force: true });
  };

  try {
    await new Promise<void>((resolveReady, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`the host did not start within ${START_TIMEOUT_MS} ms`)),
        START_TIMEOUT_MS,
      );
      const check = () => {
        const listening = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
        if (listening?.[1]) {
          url = listening[1];
          clearTimeout(timer);
          resolveReady();
        }
      };
      child.stdout?.on('data', check);
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`the host exited with code ${code} before listening`));
      });
    });
  } catch (error) {
    await stop();
    throw new Error(`${(error as Error).message}\n--- host output ---\n${output}`, { cause: error });
  }

  return { url, token, dataDir, output: () => output, stop };
}
