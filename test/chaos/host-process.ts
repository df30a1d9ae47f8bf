import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..');
const READY = /Deputy headless host listening on (http:\/\/\S+)/;
const START_TIMEOUT_MS = 30_000;
const OUTPUT_KEPT_CHARS = 20_000;
const ERROR_LINES_KEPT = 200;

/** One life of the headless host, from start to kill. */
export interface HostProcess {
  url: string;
  pid: number;
  /** The last part of what it printed, for a failure message. */
  output(): string;
  /** The lines it logged as errors ("[deputy] …" on stderr), at most the first 200 of this life. */
  errorLines(): string[];
  /** SIGKILL: no handler runs, nothing is flushed, as when the machine loses power. Resolves once it is gone. */
  kill(): Promise<void>;
  /** SIGTERM, the orderly stop; false when it had not gone within the timeout (it is then killed). */
  stop(timeoutMs?: number): Promise<boolean>;
}

export class HostStartError extends Error {}

/**
 * Starts `electron/serve.ts` with tsx (no renderer build is needed for the API), on a port the OS picks,
 * and resolves once the host prints its address. The parent's Deputy and Gemini settings are not inherited:
 * only what the harness passes points the host anywhere.
 */
export async function startHostProcess(env: Record<string, string>): Promise<HostProcess> {
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !key.startsWith('DEPUTY_') && !key.startsWith('GEMINI_')),
  );
  const child = spawn(process.execPath, ['--import', 'tsx', 'electron/serve.ts'], {
    cwd: REPO_ROOT,
    env: { ...inherited, ...env, DEPUTY_PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer): void => {
    output = (output + chunk.toString()).slice(-OUTPUT_KEPT_CHARS);
  };
  const errorLines: string[] = [];
  let partialLine = '';
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  child.stderr.on('data', (chunk: Buffer) => {
    const lines = (partialLine + chunk.toString()).split('\n');
    partialLine = lines.pop() ?? '';
    for (const line of lines)
      if (line.startsWith('[deputy]') && errorLines.length < ERROR_LINES_KEPT) errorLines.push(line);
  });
  const exited = new Promise<void>((resolveExit) => child.once('exit', () => resolveExit()));

  const url = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(
      () => reject(new HostStartError(`the host did not start within ${START_TIMEOUT_MS} ms`)),
      START_TIMEOUT_MS,
    );
    const check = (): void => {
      const match = READY.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        child.stdout.off('data', check);
        resolveUrl(match[1]);
      }
    };
    child.stdout.on('data', check);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new HostStartError(`the host exited (${signal ?? `code ${code}`}) before it was listening`));
    });
  }).catch(async (error: unknown) => {
    await killAndWait(child, exited);
    throw new HostStartError(`${(error as Error).message}\n--- host output ---\n${output}`);
  });

  return {
    url,
    pid: child.pid ?? -1,
    output: () => output,
    errorLines: () => [...errorLines],
    kill: () => killAndWait(child, exited),
    stop: async (timeoutMs = 10_000) => {
      if (isGone(child)) return true;
      child.kill('SIGTERM');
      const hasStopped = await Promise.race([
        exited.then(() => true),
        new Promise<boolean>((resolveLate) => setTimeout(() => resolveLate(false), timeoutMs)),
      ]);
      if (!hasStopped) await killAndWait(child, exited);
      return hasStopped;
    },
  };
}

const isGone = (child: ChildProcess): boolean => child.exitCode !== null || child.signalCode !== null;

async function killAndWait(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (!isGone(child)) child.kill('SIGKILL');
  await exited;
}
