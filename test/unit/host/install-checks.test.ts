import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyEndpointPolicy } from '../../../electron/host/endpoint-overrides';
import { runtimeProblem } from '../../../electron/host/runtime-check';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const versions = (node: string, electron?: string) =>
  ({ node, ...(electron && { electron }) }) as unknown as NodeJS.ProcessVersions;

describe('the runtime check at start', () => {
  it('accepts Node 22 from 22.15, and 24 on', () => {
    for (const node of ['22.15.0', '22.20.1', '24.0.0', '24.21.0', '26.1.0'])
      expect(runtimeProblem(versions(node))).toBeNull();
  });

  it('names the version needed and what to do on an older Node', () => {
    for (const node of ['20.20.2', '22.12.0', '22.14.1', '23.11.0', '18.0.0']) {
      const problem = runtimeProblem(versions(node));
      expect(problem).toContain('22.15');
      expect(problem).toContain(node);
      expect(problem).toMatch(/npm ci/);
    }
    expect(runtimeProblem(versions('20.1.0', '30.0.0'))).toMatch(/Electron \(30\.0\.0\)/);
  });

  it('agrees with package.json, and npm refuses an older Node at install (engine-strict)', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };
    expect(pkg.engines.node).toBe('^22.15.0 || >=24.0.0');
    expect(readFileSync(join(ROOT, '.npmrc'), 'utf8')).toMatch(/^engine-strict=true$/m);
  });
});

describe('endpoint overrides', () => {
  const env = {
    DEPUTY_GEMINI_BASE_URL: 'http://127.0.0.1:9/',
    DEPUTY_SLACK_API_URL: 'http://x/',
    HOME: '/h',
  };

  it('are honoured in an unpackaged run, and say so', () => {
    const { env: used, notice } = applyEndpointPolicy(env, false);
    expect(used).toBe(env);
    expect(notice).toMatch(/in force: DEPUTY_GEMINI_BASE_URL, DEPUTY_SLACK_API_URL/);
  });

  it('are dropped, with a notice, in a packaged app', () => {
    const { env: used, notice } = applyEndpointPolicy(env, true);
    expect(used).toEqual({ HOME: '/h' });
    expect(notice).toMatch(/^Ignored DEPUTY_GEMINI_BASE_URL, DEPUTY_SLACK_API_URL/);
  });

  it('are honoured in a packaged app only behind the developer setting', () => {
    const { env: used, notice } = applyEndpointPolicy({ ...env, DEPUTY_ALLOW_ENDPOINT_OVERRIDES: '1' }, true);
    expect(used.DEPUTY_GEMINI_BASE_URL).toBe('http://127.0.0.1:9/');
    expect(notice).toMatch(/in force/);
  });

  it('change nothing and say nothing when none is set', () => {
    expect(applyEndpointPolicy({ HOME: '/h' }, true)).toEqual({ env: { HOME: '/h' }, notice: null });
  });
});
