import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');

describe('the process guard', () => {
  it('logs (redacted) what escapes every handler and keeps the host serving', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/support/guarded-server.ts'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      await until(() => /listening (\S+)/.test(stdout) && stderr.includes('nothing handled it'), 20_000);
      const url = /listening (\S+)/.exec(stdout)?.[1] ?? '';
      const health = await fetch(`${url}/api/health`);
      expect(health.status).toBe(200);
      expect(child.exitCode).toBeNull();
      expect(stderr).toContain('[deputy] an error escaped every handler');
      expect(stderr).toContain('a timer blew up holding [redacted]');
      expect(stderr).toContain('[deputy] a promise was rejected and nothing handled it');
      expect(stderr).not.toMatch(/xoxb-7{24}|z{30}/);
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  }, 30_000);
});

async function until(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
