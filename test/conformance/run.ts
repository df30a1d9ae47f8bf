import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createHost } from '../../electron/host/create-host';
import { startHttpServer } from '../../electron/server/http-server';
import { startBearerProxy } from './bearer-proxy';

/**
 * `npm run test:conformance`: the official MCP conformance suite (a devDependency, no download) against Deputy's
 * MCP server (through a proxy that adds the bearer token) and Deputy's MCP client (through client-entry.ts).
 * Only the scenarios that apply run: the others test fixture tools, prompts and resources Deputy does not have.
 */
const SERVER_SCENARIOS = [
  'server-initialize',
  'ping',
  'tools-list',
  'logging-set-level',
  'dns-rebinding-protection',
];
const CLIENT_SCENARIOS = ['initialize', 'tools_call', 'sse-retry'];

const run = promisify(execFile);
const require = createRequire(import.meta.url);
const suite = join(
  require.resolve('@modelcontextprotocol/conformance/package.json'),
  '..',
  'dist',
  'index.js',
);
const tsx = join(require.resolve('tsx/package.json'), '..', 'dist', 'cli.mjs');
const entry = join(import.meta.dirname, 'client-entry.ts');

const workDir = mkdtempSync(join(tmpdir(), 'deputy-conformance-'));
const dataDir = join(workDir, 'data');
const token = 'conformance-token-0123456789abcdef';
const host = await createHost({ dataDir, env: {}, modelClient: () => null, logNotice: () => {} });
const api = await startHttpServer({
  host,
  token,
  port: 0,
  rendererDir: join(workDir, 'none'),
  logError: () => {},
});
const proxy = await startBearerProxy({ port: api.port, token });

interface Outcome {
  kind: 'server' | 'client';
  scenario: string;
  passed: number;
  total: number;
  failed: number;
}

async function scenario(kind: 'server' | 'client', name: string): Promise<Outcome> {
  const args =
    kind === 'server'
      ? [suite, 'server', '--url', proxy.url, '--scenario', name]
      : [suite, 'client', '--command', `"${process.execPath}" "${tsx}" "${entry}"`, '--scenario', name];
  const output = await run(process.execPath, args, { cwd: workDir, timeout: 120_000 }).then(
    (done) => done.stdout + done.stderr,
    (error: { stdout?: string; stderr?: string }) => `${error.stdout ?? ''}${error.stderr ?? ''}`,
  );
  const counts = /Passed: (\d+)\/(\d+), (\d+) failed/.exec(output);
  if (!counts) console.log(output);
  const [passed, total, failed] = counts ? counts.slice(1).map(Number) : [0, 1, 1];
  return { kind, scenario: name, passed: passed ?? 0, total: total ?? 1, failed: failed ?? 1 };
}

/** `--all`: also the whole server suite, printed for the record (most of it tests fixtures Deputy lacks). */
async function wholeServerSuite(): Promise<void> {
  const output = await run(process.execPath, [suite, 'server', '--url', proxy.url], {
    cwd: workDir,
    timeout: 600_000,
  }).then(
    (done) => done.stdout,
    (error: { stdout?: string }) => error.stdout ?? '',
  );
  console.log(
    output
      .split('\n')
      .filter((line) => /Passed:|FAIL|✗|failed/i.test(line))
      .join('\n'),
  );
}

const outcomes: Outcome[] = [];
try {
  if (process.argv.includes('--all')) await wholeServerSuite();
  for (const name of SERVER_SCENARIOS) outcomes.push(await scenario('server', name));
  for (const name of CLIENT_SCENARIOS) outcomes.push(await scenario('client', name));
} finally {
  await proxy.close();
  await api.close();
  await host.close();
  rmSync(workDir, { recursive: true, force: true });
}
for (const outcome of outcomes)
  console.log(`${outcome.kind} ${outcome.scenario}: ${outcome.passed}/${outcome.total} checks passed`);
const sum = (kind: Outcome['kind'], key: 'passed' | 'total') =>
  outcomes.filter((outcome) => outcome.kind === kind).reduce((total, outcome) => total + outcome[key], 0);
console.log(
  `server: ${sum('server', 'passed')}/${sum('server', 'total')} checks; client: ${sum('client', 'passed')}/${sum('client', 'total')} checks`,
);
process.exit(outcomes.every((outcome) => outcome.failed === 0 && outcome.passed === outcome.total) ? 0 : 1);
