// `npm run test:fuzz [-- --cases N --seed S]`: generated requests against a real headless host (HTTP routes,
// the upgrade path, the WebSocket protocol) and against the IPC handlers of an in-process host. Fails on a
// host exit, a 5xx, silence, an error body that is not the JSON error shape, an `internal` error, a stack
// trace or a file path in an answer, or RSS growth beyond the stated bound. Prints the counts.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { createHost } from '../../electron/host/create-host';
import { createApiRoutes } from '../../electron/server/api-routes';
import { createIpcHandlers, type IpcInvokeEvent } from '../../electron/shell/ipc-handlers';
import { createRng, seedFrom } from '../chaos/prng';
import { startHostProcess } from '../chaos/host-process';
import { startFakeGemini } from '../fakes/gemini/server';
import { rawRequest } from '../support/raw-http';
import { checkHttpAnswer, checkResult, leakIn } from './checks';
import { fuzzModelStep } from './fuzz-model';
import { ROUTES, httpCase, upgradeCase } from './http-cases';
import { channelInput, IdPool } from './inputs';
import { exoticValue } from './exotic';
import { WsFuzzer } from './ws-fuzzer';

/**
 * RSS may grow by this much after warm-up. The heap, SQLite's page cache and the runs the fuzz starts settle at
 * a plateau: 10,000 and 25,000 cases both end near 360 MB (growth 117–163 MB), so a leak would cross this.
 */
const RSS_GROWTH_BOUND_MB = 256;
const CONCURRENCY = 8;
const TOKEN = 'fuzz-token-0123456789abcdef';
const APP_URL = 'file:///opt/deputy/out/renderer/index.html';

const { values } = parseArgs({
  options: {
    cases: { type: 'string', default: '10000' },
    seed: { type: 'string', default: 'deputy' },
    // Replays one case (or a few, "1700-1712") of a run with the same seed, one at a time, to find a finding again.
    only: { type: 'string' },
    verbose: { type: 'boolean', default: false },
  },
});
const cases = Number(values.cases);
if (!Number.isInteger(cases) || cases < 1)
  throw new Error(`--cases must be a positive whole number, not ${values.cases}`);
const seed = seedFrom(values.seed);

const modelRng = createRng(seed ^ 0x5eed);
const gemini = await startFakeGemini({ fallback: () => fuzzModelStep(modelRng) });
const dataDir = mkdtempSync(join(tmpdir(), 'deputy-fuzz-'));
const ipcDataDir = mkdtempSync(join(tmpdir(), 'deputy-fuzz-ipc-'));
const env = {
  DEPUTY_DATA_DIR: dataDir,
  DEPUTY_API_TOKEN: TOKEN,
  GEMINI_API_KEY: 'AIzaSyFuzz-fake-gemini-key-0000000000000',
  DEPUTY_GEMINI_BASE_URL: gemini.url,
  // Nothing listens there: Slack calls fail fast, as they do offline.
  DEPUTY_SLACK_API_URL: 'http://127.0.0.1:9/api/',
  DEPUTY_GOOGLE_OAUTH_BASE: 'http://127.0.0.1:9',
};
const child = await startHostProcess(env);
const port = Number(new URL(child.url).port);
const ipcHost = await createHost({ dataDir: ipcDataDir, env, logError: () => {}, openExternal: () => {} });
const ipc = createIpcHandlers(
  ipcHost,
  (event) => event.senderFrame?.url === APP_URL && event.senderFrame.parent === null,
);

const ids = new IdPool();
const ws = new WsFuzzer(port, TOKEN);
const counts = { http: 0, upgrade: 0, ws: 0, ipc: 0 };
const statuses = new Map<string, number>();
const routeHits = new Map<string, number>();
const findings: string[] = [];
let rssStart = 0;

const note = (key: string): void => void statuses.set(key, (statuses.get(key) ?? 0) + 1);
const find = (index: number, kind: string, what: string, problem: string): void => {
  if (findings.length < 50) findings.push(`#${index} ${kind} ${what}: ${problem}`);
};

async function runCase(index: number): Promise<void> {
  const rng = createRng(seed + index * 7_919);
  const roll = rng.next();
  if (roll < 0.6) {
    counts.http += 1;
    const request = httpCase(rng, ids, { port, token: TOKEN });
    // Bytes that never make a request line are cut by the request timeout (30 s), so wait a little longer.
    const answer = await rawRequest(port, request.bytes, { timeoutMs: 40_000 });
    note(`http ${answer.status}`);
    ids.learn(answer.body);
    if (request.route && request.isWellFormed && answer.status > 0)
      routeHits.set(request.route, (routeHits.get(request.route) ?? 0) + 1);
    const problem =
      (request.isHead
        ? answer.status >= 500 || answer.status === 0
          ? `HEAD answered ${answer.status}`
          : null
        : checkHttpAnswer(answer.status, answer.headers['content-type'], answer.body, answer.ending)) ??
      (answer.headers['content-type']?.startsWith('application/x-ndjson')
        ? ndjsonProblem(answer.body)
        : null) ??
      (answer.body.includes('hit an internal error') ? 'a run ended in an internal error' : null);
    if (problem)
      find(index, 'http', request.bytes.subarray(0, 80).toString('latin1').split('\r\n')[0] ?? '', problem);
  } else if (roll < 0.7) {
    counts.upgrade += 1;
    const answer = await rawRequest(port, upgradeCase(rng, { port, token: TOKEN }), { timeoutMs: 10_000 });
    note(`upgrade ${answer.status}`);
    const problem =
      answer.status === 101
        ? null
        : checkHttpAnswer(answer.status, answer.headers['content-type'], answer.body);
    if (problem) find(index, 'upgrade', answer.raw.slice(0, 40), problem);
  } else if (roll < 0.85) {
    counts.ws += 1;
    const outcome = await ws.send(rng, ids, index);
    note(`ws ${outcome.kind}`);
    if (outcome.problem) find(index, 'ws', outcome.what, outcome.problem);
  } else {
    counts.ipc += 1;
    const problem = await ipcCase(rng);
    note(`ipc ${problem ? 'finding' : 'ok'}`);
    if (problem) find(index, 'ipc', problem.what, problem.problem);
  }
}

async function ipcCase(rng: ReturnType<typeof createRng>): Promise<{ what: string; problem: string } | null> {
  const isStream = rng.chance(0.25);
  const [channel, plain] = channelInput(rng, ids, isStream ? 'stream' : 'command');
  const input = rng.chance(0.15) ? exoticValue(rng) : plain;
  const event = ipcEvent(rng);
  let cloned: unknown;
  try {
    // Electron hands the handlers a structured clone of what the page sent; what cannot be cloned never arrives.
    cloned = structuredClone(input);
  } catch {
    return null;
  }
  try {
    const result = isStream
      ? ipc.subscribe(event, rng.chance(0.9) ? `s${rng.int(0, 80)}` : exoticValue(rng), channel, cloned)
      : await ipc.command(event, channel, cloned);
    if (!isStream) ids.learn(JSON.stringify(result) ?? '');
    if (isStream && rng.chance(0.5)) ipc.unsubscribe(event, `s${rng.int(0, 80)}`);
    const problem = checkResult(result);
    return problem ? { what: channel, problem } : null;
  } catch (error) {
    return { what: channel, problem: `threw ${(error as Error).message}` };
  }
}

function ipcEvent(rng: ReturnType<typeof createRng>): IpcInvokeEvent {
  const url = rng.chance(0.9) ? APP_URL : 'https://evil.example/';
  return {
    senderFrame: rng.chance(0.05) ? null : { url, parent: rng.chance(0.05) ? {} : null },
    sender: {
      id: rng.int(1, 3),
      send: () => {},
      isDestroyed: () => false,
      once: () => undefined,
      on: () => undefined,
    },
  };
}

function ndjsonProblem(body: string): string | null {
  for (const line of body.split('\n').filter((line) => line.trim() !== '')) {
    let event: { type?: string; code?: string };
    try {
      event = JSON.parse(line) as { type?: string; code?: string };
    } catch {
      return `an NDJSON line is not JSON: ${line.slice(0, 80)}`;
    }
    if (event.type === 'error' && event.code === 'internal')
      return 'a streamed run ended in an internal error';
  }
  return leakIn(body);
}

function rssMb(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : 0;
}

// The fuzzer's own pauses (a huge structured clone for the in-process IPC host) would look like a host that
// stopped answering; they are measured and printed, so a timeout can be told apart from a blocked host.
const loopDelay = monitorEventLoopDelay({ resolution: 20 });
loopDelay.enable();
const started = Date.now();
const only = values.only?.split('-').map(Number);
let next = only ? (only[0] ?? 0) : 0;
const last = only ? (only[1] ?? only[0] ?? 0) + 1 : cases;
const warmup = Math.min(1_000, Math.floor(cases / 10));
async function worker(): Promise<void> {
  while (next < last) {
    const index = next;
    next += 1;
    if (index === warmup || (only && index === only[0])) rssStart = rssMb(child.pid);
    const caseStarted = Date.now();
    try {
      const pending = runCase(index);
      const syncMs = Date.now() - caseStarted;
      if (syncMs > 1_000)
        console.log(`  case ${index} held the fuzzer for ${syncMs} ms before its first wait`);
      await pending;
      if (values.verbose) console.log(`  case ${index}: ${Date.now() - caseStarted} ms`);
    } catch (error) {
      find(index, 'fuzzer', 'case', `the fuzzer failed: ${(error as Error).stack ?? String(error)}`);
    }
  }
}
let hostDied = false;
try {
  await Promise.all(Array.from({ length: only ? 1 : CONCURRENCY }, () => worker()));
  // One last health check: the host must still be there and answering.
  const health = await rawRequest(
    port,
    `GET /api/health HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`,
  );
  hostDied = health.status !== 200;
} catch (error) {
  findings.push(`the fuzzer itself failed: ${(error as Error).message}`);
}
const rssEnd = hostDied ? 0 : rssMb(child.pid);
ws.close();
const hostErrors = child.errorLines();
await child.stop();
await ipcHost.close();
await gemini.close();
rmSync(dataDir, { recursive: true, force: true });
rmSync(ipcDataDir, { recursive: true, force: true });

// The route table above is the fuzzer's own copy: a route the server has and the table lacks is a finding.
const templates = ROUTES.map((route) => `${route.method} ${route.path.replace(':id', 'x')}`);
for (const route of createApiRoutes(ipcHost, () => {})) {
  const isCovered = templates.some((template) => {
    const [method, path = ''] = template.split(' ');
    return (
      method === route.method &&
      route.pattern.test(path.replace('/x', '/slack').replace('/slack/start', '/slack/start'))
    );
  });
  const isCoveredById = templates.some(
    (template) => template.startsWith(`${route.method} `) && route.pattern.test(template.split(' ')[1] ?? ''),
  );
  if (!isCovered && !isCoveredById)
    findings.push(`the fuzzer has no case for ${route.method} ${route.pattern.source}`);
}
const unreached = ROUTES.map((route) => `${route.method} ${route.path}`).filter(
  (route) => !routeHits.has(route),
);
const growth = rssEnd - rssStart;
console.log(
  `\nDeputy fuzz: ${cases} cases, seed "${values.seed}", ${((Date.now() - started) / 1000).toFixed(1)} s`,
);
console.log(
  `  HTTP requests ${counts.http}, upgrades ${counts.upgrade}, WebSocket messages ${counts.ws}, IPC calls ${counts.ipc}`,
);
console.log(
  `  answers: ${[...statuses.entries()]
    .sort()
    .map(([key, n]) => `${key}: ${n}`)
    .join(', ')}`,
);
console.log(`  routes reached (well-formed): ${ROUTES.length - unreached.length}/${ROUTES.length}`);
console.log(
  `  host RSS: ${rssStart.toFixed(0)} MB after warm-up → ${rssEnd.toFixed(0)} MB (growth ${growth.toFixed(0)} MB, bound ${RSS_GROWTH_BOUND_MB} MB)`,
);
console.log(`  host error lines logged: ${hostErrors.length}`);
console.log(`  the fuzzer's own longest pause: ${(loopDelay.max / 1e6).toFixed(0)} ms`);
const internal = hostErrors.filter((line) => !/could not|failed/.test(line)).slice(0, 5);
if (hostDied) findings.push('the host stopped answering');
if (growth > RSS_GROWTH_BOUND_MB) findings.push(`RSS grew by ${growth.toFixed(0)} MB`);
if (unreached.length > 0) findings.push(`routes never reached: ${unreached.join(', ')}`);
if (findings.length > 0) {
  console.log(`\nFINDINGS (${findings.length}):\n  ${findings.join('\n  ')}`);
  if (internal.length) console.log(`  host log sample:\n    ${internal.join('\n    ')}`);
  process.exit(1);
}
console.log('  findings: 0');
process.exit(0);
