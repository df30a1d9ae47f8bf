import type { Rng } from '../chaos/prng';
import type { IdPool } from './inputs';
import { routeBody } from './inputs';
import { pick, randomJson, randomString } from './values';

interface RouteTemplate {
  method: string;
  /** `:id` is replaced by an id (real, random or malformed). */
  path: string;
  /** Which contract input the body resembles; null for routes without a body. */
  body: string | null;
}

/** Every route of electron/server/api-routes.ts (the run checks each one was reached). */
export const ROUTES: readonly RouteTemplate[] = [
  { method: 'GET', path: '/api/health', body: null },
  { method: 'POST', path: '/api/agent/run', body: 'run.start' },
  { method: 'POST', path: '/api/agent/run/stream', body: 'run.start' },
  { method: 'POST', path: '/api/runs/:id/cancel', body: null },
  { method: 'GET', path: '/api/threads', body: null },
  { method: 'GET', path: '/api/threads/:id', body: null },
  { method: 'DELETE', path: '/api/threads/:id', body: null },
  { method: 'PATCH', path: '/api/threads/:id', body: 'thread.rename' },
  { method: 'GET', path: '/api/data', body: null },
  { method: 'GET', path: '/api/models', body: null },
  { method: 'GET', path: '/api/usage/daily', body: null },
  { method: 'GET', path: '/api/threads/search', body: null },
  { method: 'GET', path: '/api/threads/export', body: null },
  { method: 'GET', path: '/api/tasks-and-memories/export', body: null },
  { method: 'GET', path: '/api/tasks', body: null },
  { method: 'POST', path: '/api/tasks', body: 'tasks.add' },
  { method: 'PATCH', path: '/api/tasks/:id', body: 'tasks.update' },
  { method: 'POST', path: '/api/tasks/:id/complete', body: null },
  { method: 'DELETE', path: '/api/tasks/:id', body: null },
  { method: 'POST', path: '/api/data/prune', body: 'threads.prune' },
  { method: 'POST', path: '/api/data/compact', body: null },
  { method: 'GET', path: '/api/context', body: null },
  { method: 'POST', path: '/api/context/clear', body: null },
  { method: 'GET', path: '/api/actions/pending', body: null },
  { method: 'GET', path: '/api/actions/:id', body: null },
  { method: 'POST', path: '/api/actions/:id/approve', body: 'approval.decide' },
  { method: 'POST', path: '/api/actions/:id/reject', body: 'approval.decide' },
  { method: 'POST', path: '/api/actions/:id/edit', body: 'approval.edit' },
  { method: 'GET', path: '/api/settings', body: null },
  { method: 'PUT', path: '/api/settings', body: 'settings.set' },
  { method: 'GET', path: '/api/side-effects', body: null },
  { method: 'PUT', path: '/api/side-effects', body: 'sideEffects.set' },
  { method: 'GET', path: '/api/tools', body: null },
  { method: 'GET', path: '/api/connections', body: null },
  { method: 'POST', path: '/api/connections/slack/start', body: null },
  { method: 'POST', path: '/api/connections/google/start', body: null },
  { method: 'PUT', path: '/api/connections/slack', body: 'connections.connect' },
  { method: 'PUT', path: '/api/connections/gemini', body: 'connections.connect' },
  { method: 'DELETE', path: '/api/connections/:id', body: null },
  { method: 'GET', path: '/api/memories', body: null },
  { method: 'PUT', path: '/api/memories/:id', body: 'memory.update' },
  { method: 'DELETE', path: '/api/memories/:id', body: null },
  { method: 'GET', path: '/api/mcp/servers', body: null },
  { method: 'PUT', path: '/api/mcp/servers/:id', body: 'mcp.put' },
  { method: 'DELETE', path: '/api/mcp/servers/:id', body: null },
  { method: 'POST', path: '/api/mcp/servers/:id/restart', body: null },
  { method: 'GET', path: '/api/mcp/servers/:id/log', body: null },
  { method: 'POST', path: '/api/mcp/import', body: 'mcp.import' },
  { method: 'POST', path: '/mcp', body: 'mcp.jsonrpc' },
  { method: 'GET', path: '/api/audit', body: null },
  { method: 'GET', path: '/api/audit/verify', body: null },
  { method: 'GET', path: '/api/audit/export', body: null },
  { method: 'GET', path: '/api/audit/decisions', body: null },
  { method: 'GET', path: '/api/audit/tool-invocations', body: null },
  { method: 'GET', path: '/api/audit/:id', body: null },
  { method: 'GET', path: '/api/audit/:id/assumptions', body: null },
  { method: 'POST', path: '/api/audit/:id/verify', body: 'audit.verifyAssumption' },
  { method: 'POST', path: '/api/audit/:id/undo', body: 'audit.undo' },
  { method: 'GET', path: '/api/agents', body: null },
  { method: 'GET', path: '/api/agents/:id', body: null },
  { method: 'POST', path: '/api/agents/:id/run', body: 'agents.run' },
  { method: 'POST', path: '/api/agents/:id/run/stream', body: 'agents.run' },
  { method: 'GET', path: '/api/runs/:id/lineage', body: null },
  { method: 'GET', path: '/api/artifacts', body: null },
  { method: 'GET', path: '/api/artifacts/:id', body: null },
  { method: 'GET', path: '/api/plans/:id', body: null },
  { method: 'POST', path: '/api/plans/:id/approve', body: null },
  { method: 'POST', path: '/api/plans/:id/continue', body: 'plan.continue' },
  { method: 'POST', path: '/api/plans/:id/cancel', body: null },
  { method: 'GET', path: '/', body: null },
  { method: 'GET', path: '/assets/:id', body: null },
];

// eslint-disable-next-line no-control-regex -- a header value must not carry these, or the request is no longer one
const HEADER_BREAKERS = /[\r\n\u0000]/g;

const PATH_PARAMS = [
  '%E0%A4%A',
  '%',
  '%00',
  '%2F..%2F',
  'a%20b',
  '..',
  '%C0%AF',
  'x'.repeat(3_000),
  '%F0%9F%91%8D',
];
const METHODS = [
  'GET',
  'POST',
  'PUT',
  'DELETE',
  'PATCH',
  'HEAD',
  'OPTIONS',
  'TRACE',
  'CONNECT',
  'FOO',
  'get',
];
const TARGET_FORMS = [
  'http://127.0.0.1/api/health',
  '//api/health',
  '*',
  'api/health',
  '/api/health#x',
  '/api/\u00e9',
];

export interface HttpCase {
  /** The bytes to send, already framed as HTTP/1.1 (or deliberately not). */
  bytes: Buffer;
  /** The route template the case was built from, for the coverage count; null for noise. */
  route: string | null;
  /** Whether the case is expected to reach a handler (good Host, token, target). */
  isWellFormed: boolean;
  /** HEAD answers carry no body, so there is no error body to check. */
  isHead: boolean;
}

export interface Endpoint {
  port: number;
  token: string;
}

/** One HTTP request, from a faithful call of a route to bytes that are barely HTTP. */
export function httpCase(rng: Rng, ids: IdPool, endpoint: Endpoint): HttpCase {
  if (rng.chance(0.03)) return { bytes: garbage(rng), route: null, isWellFormed: false, isHead: false };
  const route = pick(rng, ROUTES);
  let isWellFormed = true;
  const flaw = (p: number): boolean => {
    const hit = rng.chance(p);
    if (hit) isWellFormed = false;
    return hit;
  };
  let target = route.path.replace(':id', () =>
    flaw(0.15) ? pick(rng, PATH_PARAMS) : encodePart(ids.any(rng)),
  );
  if (flaw(0.05)) target = pick(rng, TARGET_FORMS);
  if (rng.chance(0.1)) target += `?${encodeQuery(rng)}`;
  const method = flaw(0.08) ? pick(rng, METHODS) : route.method;
  const headers: [string, string][] = [['Host', hostHeader(rng, endpoint.port, flaw(0.06))]];
  if (rng.chance(0.08))
    headers.push([
      'Origin',
      pick(rng, ['https://evil.example', 'null', `http://localhost:${endpoint.port}`]),
    ]);
  // An MCP client says it takes JSON and SSE; without it the endpoint answers 406, as the protocol asks.
  if (route.path === '/mcp' && rng.chance(0.9))
    headers.push(['Accept', 'application/json, text/event-stream']);
  const auth = authorization(rng, endpoint.token, flaw(0.08));
  if (auth !== null) headers.push(['Authorization', auth]);
  let body = '';
  if (route.body !== null || rng.chance(0.05)) {
    body = bodyText(rng, route, ids);
    headers.push([
      'Content-Type',
      flaw(0.05) ? pick(rng, ['text/plain', 'application/jsonx', '']) : 'application/json',
    ]);
  }
  const bodyBytes = Buffer.from(body, 'utf8');
  const chunked = body !== '' && rng.chance(0.1);
  if (chunked) headers.push(['Transfer-Encoding', 'chunked']);
  else if (body !== '') headers.push(['Content-Length', String(bodyBytes.length)]);
  if (rng.chance(0.03))
    headers.push([pick(rng, ['X-A', 'Cookie', 'Accept']), randomString(rng).replace(HEADER_BREAKERS, '')]);
  const head = `${method} ${target} HTTP/1.1\r\n${headers.map(([name, value]) => `${name}: ${value}`).join('\r\n')}\r\nConnection: close\r\n\r\n`;
  const framed = chunked
    ? Buffer.concat([
        Buffer.from(`${bodyBytes.length.toString(16)}\r\n`),
        bodyBytes,
        Buffer.from('\r\n0\r\n\r\n'),
      ])
    : bodyBytes;
  return {
    bytes: Buffer.concat([Buffer.from(head, 'latin1'), framed]),
    route: `${route.method} ${route.path}`,
    isWellFormed,
    isHead: method === 'HEAD',
  };
}

/** A WebSocket upgrade request, mostly right, often wrong in one header. */
export function upgradeCase(rng: Rng, endpoint: Endpoint): Buffer {
  const target = rng.chance(0.8)
    ? '/ws'
    : pick(rng, [...TARGET_FORMS, 'http://[', '/ws?%', '/wss', '/ws/../ws']);
  const headers: [string, string][] = [
    ['Host', hostHeader(rng, endpoint.port, rng.chance(0.1))],
    ['Upgrade', rng.chance(0.9) ? 'websocket' : randomString(rng).replace(HEADER_BREAKERS, '') || 'x'],
    ['Connection', 'Upgrade'],
    ['Sec-WebSocket-Key', rng.chance(0.9) ? 'dGhlIHNhbXBsZSBub25jZQ==' : 'short'],
    ['Sec-WebSocket-Version', rng.chance(0.9) ? '13' : pick(rng, ['8', '', 'x'])],
  ];
  const token = authorization(rng, endpoint.token, rng.chance(0.15))?.replace(/^Bearer /, '') ?? '';
  if (rng.chance(0.9)) headers.push(['Sec-WebSocket-Protocol', `deputy.v1, bearer.${token}`]);
  if (rng.chance(0.2))
    headers.push([
      'Origin',
      pick(rng, ['https://evil.example', `http://127.0.0.1:${endpoint.port}`, 'null']),
    ]);
  const head = `GET ${target} HTTP/1.1\r\n${headers.map(([name, value]) => `${name}: ${value}`).join('\r\n')}\r\n\r\n`;
  return Buffer.from(head, 'latin1');
}

function hostHeader(rng: Rng, port: number, isWrong: boolean): string {
  if (!isWrong) return pick(rng, [`127.0.0.1:${port}`, `localhost:${port}`]);
  return pick(rng, [`evil.example:${port}`, '127.0.0.1', `127.0.0.1:${port + 1}`, '', 'localhost:x']);
}

function authorization(rng: Rng, token: string, isWrong: boolean): string | null {
  if (!isWrong) return `Bearer ${token}`;
  return pick(rng, [
    null,
    'Bearer',
    `Bearer ${token}x`,
    `Basic ${token}`,
    `Bearer ${token}\u0000`,
    `Bearer ${'a'.repeat(10_000)}`,
    `bearer  ${token} `,
  ]);
}

function bodyText(rng: Rng, route: RouteTemplate, ids: IdPool): string {
  const roll = rng.next();
  if (roll < 0.75)
    return JSON.stringify(route.body ? routeBody(route.body, rng, ids) : randomJson(rng)) ?? 'null';
  if (roll < 0.85) return JSON.stringify(randomJson(rng)) ?? 'null';
  if (roll < 0.9) {
    // Far deeper than anything built as a value could be stringified: the host must not recurse into it.
    const levels = rng.int(1_000, 200_000);
    return `{"prompt":"hi","conversation":${'['.repeat(levels)}${']'.repeat(levels)}}`;
  }
  return pick(rng, [
    '{',
    '{"prompt":',
    '[1,2',
    'nul',
    '\u0000',
    '{"a":1}{"b":2}',
    '\ufeff{"prompt":"hi"}',
    '',
  ]);
}

function encodeQuery(rng: Rng): string {
  return pick(rng, [
    'limit=5',
    'limit=-1',
    'limit=abc',
    'q=%',
    'q=%00',
    'cursor=%E0%A4%A',
    `q=${encodePart(randomString(rng))}`,
    'before=x&before=y',
  ]);
}

/** encodeURIComponent, except that a lone surrogate (which it refuses) goes through as a malformed escape. */
function encodePart(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return '%ED%A0%80';
  }
}

function garbage(rng: Rng): Buffer {
  const choices = [
    () => Buffer.from(Array.from({ length: rng.int(1, 300) }, () => rng.int(0, 255))),
    () => Buffer.from('GET / HTTP/9.9\r\n\r\n'),
    () => Buffer.from('GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: -1\r\n\r\n'),
    () => Buffer.from('GET /api/health HTTP/1.1\r\nHo st: x\r\n\r\n'),
    () => Buffer.from(`GET /${'a'.repeat(20_000)} HTTP/1.1\r\n\r\n`),
    () => Buffer.from(`GET / HTTP/1.1\r\nX: ${'a'.repeat(20_000)}\r\n\r\n`),
    () => Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n'),
  ];
  return pick(rng, choices)();
}
