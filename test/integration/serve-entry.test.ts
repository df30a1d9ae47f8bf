import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const dataDir = mkdtempSync(join(tmpdir(), 'deputy-serve-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** Starts `electron/serve.ts` until it says it listens and what to open, then stops it; returns what it printed. */
function startOnce(args: string[], env: Record<string, string> = {}): Promise<string> {
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !key.startsWith('DEPUTY_') && !key.startsWith('GEMINI_')),
  );
  const child = spawn(process.execPath, ['--import', 'tsx', 'electron/serve.ts', ...args], {
    cwd: ROOT,
    env: { ...inherited, DEPUTY_DATA_DIR: dataDir, DEPUTY_PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start within 20 s:\n${output}`)), 20_000);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      if (/^Open http/m.test(output)) {
        clearTimeout(timer);
        child.once('exit', () => resolve(output));
        child.kill('SIGTERM');
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
  });
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
});
