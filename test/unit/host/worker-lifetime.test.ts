import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const SCRIPT = join(import.meta.dirname, '..', '..', 'support', 'worker-lifetime-script.ts');

describe('worker threads and the life of the process', () => {
  it('keep a script alive while they answer and while they close, and let it end after', () => {
    // An idle worker is unreferenced (it must not keep Deputy running); a request out, or a close under way,
    // is what the process then waits for. Without that, the script below stopped at its first await.
    const result = spawnSync(process.execPath, ['--import', 'tsx', SCRIPT], {
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(result.stderr).not.toMatch(/unsettled top-level await/);
    expect(result.stdout.trim()).toBe('done: 5000');
    expect(result.status).toBe(0);
  });
});
