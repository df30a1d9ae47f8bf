import { mkdirSync, writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { ModelClient, ModelStreamEvent } from '../../electron/llm/model-client';
import { startHttpServer, type RunningServer } from '../../electron/server/http-server';
import { WS_PROTOCOL, WS_TOKEN_PREFIX } from '../../shared/contract/ws-protocol';
import { openHost, type HostFixture } from '../support/host-fixture';
import { httpRequest, rawRequest, type RawAnswer } from '../support/raw-http';
import { say } from '../support/scripted-model';

const TOKEN = 'hardening-token-123';
const SLOW_ANSWER_MS = 1_500;

/** Answers every turn after a pause longer than the request timeout below: a long answer is not a slow request. */
const slowModel: ModelClient = {
  async *stream(): AsyncIterable<ModelStreamEvent> {
    await new Promise((resolve) => setTimeout(resolve, SLOW_ANSWER_MS));
    yield* say('Done at last.');
  },
};

let fixture: HostFixture;
let server: RunningServer;
let port: number;
let host: string;

beforeAll(async () => {
  fixture = await openHost(slowModel);
  const rendererDir = join(fixture.dataDir, 'renderer');
  mkdirSync(rendererDir);
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Deputy</title>');
  server = await startHttpServer({
    host: fixture.host,
    token: TOKEN,
    port: 0,
    rendererDir,
    logError: () => {},
    limits: { headersTimeoutMs: 400, requestTimeoutMs: 800, maxConnections: 8, maxSubscriptionsPerSocket: 2 },
  });
  port = server.port;
  host = `127.0.0.1:${port}`;
});
afterAll(async () => {
  await server.close();
  await fixture.close();
});

const auth = { Authorization: `Bearer ${TOKEN}` };
const send = (
  method: string,
  target: string,
  headers: Record<string, string>,
  body = '',
): Promise<RawAnswer> => rawRequest(port, httpRequest(method, target, headers, body));

function expectJsonError(answer: RawAnswer, status: number, code: string): void {
  expect(answer.status).toBe(status);
  expect(answer.headers['content-type']).toMatch(/^application\/json/);
  expect(JSON.parse(answer.body)).toMatchObject({ ok: false, error: { code } });
}

async function isAlive(): Promise<boolean> {
  const answer = await send('GET', '/api/health', { Host: host });
  return answer.status === 200;
}

describe('nothing a client sends kills or wedges the host', () => {
  it('answers a WebSocket upgrade whose target no URL parser accepts, and keeps serving', async () => {
    for (const target of ['http://[', '//[::', '/ws?%', 'http://evil/ws', '*']) {
      const answer = await send('GET', target, {
        Host: host,
        Upgrade: 'websocket',
        Connection: 'Upgrade',
        'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==',
        'Sec-WebSocket-Version': '13',
      });
      expect(answer.status).toBeGreaterThanOrEqual(400);
      expect(answer.status).toBeLessThan(500);
    }
    expect(await isAlive()).toBe(true);
  });

  it.each([
    ['absolute-form', 'GET', `http://${'127.0.0.1'}/api/health`],
    ['protocol-relative', 'GET', '//api/health'],
    ['asterisk-form', 'OPTIONS', '*'],
    ['a control character in the target', 'GET', '/api/threads/\u0001x'],
  ])('refuses a %s request target with 400 JSON', async (_name, method, target) => {
    expectJsonError(await send(method, target, { Host: host, ...auth }), 400, 'invalid_input');
  });

  it('answers malformed percent-encoding in a path parameter with 400, not 500', async () => {
    for (const target of ['/api/threads/%E0%A4%A', '/api/actions/%', '/api/memories/%zz']) {
      const method = target.startsWith('/api/memories') ? 'DELETE' : 'GET';
      expectJsonError(await send(method, target, { Host: host, ...auth }), 400, 'invalid_input');
    }
    // Static files too.
    expectJsonError(await send('GET', '/%E0%A4%A', { Host: host }), 400, 'invalid_input');
  });

  it('caps JSON nesting at 32 levels before anything recurses into it', async () => {
    const deep = `${'{"a":'.repeat(100)}1${'}'.repeat(100)}`;
    const headers = { Host: host, ...auth, 'Content-Type': 'application/json' };
    const answer = await send('PUT', '/api/settings', headers, deep);
    expectJsonError(answer, 400, 'invalid_input');
    expect(JSON.parse(answer.body).error.message).toMatch(/nested deeper than 32/);
    const arrays = `{"prompt":"hi","conversation":${'['.repeat(50_000)}${']'.repeat(50_000)}}`;
    expectJsonError(await send('POST', '/api/agent/run', headers, arrays), 400, 'invalid_input');
  });

  it('refuses NUL in tokens and in strings with a 4xx', async () => {
    const withNul = await send('GET', '/api/threads', {
      Host: host,
      Authorization: `Bearer ${TOKEN}\u0000x`,
    });
    expect(withNul.status).toBeGreaterThanOrEqual(400);
    expect(withNul.status).toBeLessThan(500);
    expect(JSON.parse(withNul.body)).toMatchObject({ ok: false });
    const headers = { Host: host, ...auth, 'Content-Type': 'application/json' };
    const prompt = await send('POST', '/api/agent/run', headers, JSON.stringify({ prompt: 'a\u0000b' }));
    expectJsonError(prompt, 400, 'invalid_input');
    const key = await send('PUT', '/api/settings', headers, JSON.stringify({ ['user\u0000Name']: 'x' }));
    expectJsonError(key, 400, 'invalid_input');
  });

  it('cuts headers that never finish with 408', async () => {
    const started = Date.now();
    const answer = await rawRequest(
      port,
      [`GET /api/health HTTP/1.1\r\nHost: ${host}\r\n`, 'X-Slow: 1\r\n'],
      {
        gapMs: 100,
        timeoutMs: 5_000,
      },
    );
    expectJsonError(answer, 408, 'request_timeout');
    expect(Date.now() - started).toBeLessThan(4_000);
  });

  it('cuts a body that never finishes with 408', async () => {
    const head = `PUT /api/settings HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n`;
    const answer = await rawRequest(port, [head, '{"userName":'], { timeoutMs: 5_000 });
    expect([408, 400]).toContain(answer.status);
    expect(answer.status === 0 || JSON.parse(answer.body).ok === false).toBe(true);
    expect(await isAlive()).toBe(true);
  });

  it('lets an answer take longer than the request timeout (a stream, an approval wait)', async () => {
    const headers = { Host: host, ...auth, 'Content-Type': 'application/json' };
    const answer = await rawRequest(
      port,
      httpRequest('POST', '/api/agent/run/stream', headers, JSON.stringify({ prompt: 'Take your time' })),
      { timeoutMs: 10_000 },
    );
    expect(answer.status).toBe(200);
    expect(answer.body).toContain('Done at last.');
  });

  it('turns away sockets beyond the cap with a typed error, and serves again once they close', async () => {
    const held = await Promise.all(
      Array.from(
        { length: 8 },
        () =>
          new Promise<Socket>((resolve) => {
            const socket = connect(port, '127.0.0.1', () => resolve(socket));
          }),
      ),
    );
    try {
      expectJsonError(await send('GET', '/api/health', { Host: host }), 429, 'too_many');
      // Turned away means not served: a request sent on the refused socket anyway changes nothing.
      const headers = { Host: host, ...auth, 'Content-Type': 'application/json' };
      const change = await send(
        'PUT',
        '/api/settings',
        headers,
        JSON.stringify({ userName: 'Over the cap' }),
      );
      expectJsonError(change, 429, 'too_many');
    } finally {
      for (const socket of held) socket.destroy();
    }
    // The host counts a socket out once it has seen it close, which may take a while on a loaded machine.
    await expect.poll(isAlive, { timeout: 5_000 }).toBe(true);
    expect((await fixture.host.invoke('settings.get', {})).userName).not.toBe('Over the cap');
  });

  it('caps subscriptions per WebSocket with a typed error', async () => {
    const socket = new WebSocket(`ws://${host}/ws`, [WS_PROTOCOL, `${WS_TOKEN_PREFIX}${TOKEN}`]);
    const replies: { id: string; ok: boolean; error?: { code: string } }[] = [];
    socket.on('message', (data) => {
      const message = JSON.parse(data.toString());
      if (message.kind === 'reply') replies.push(message);
    });
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    for (const id of ['a', 'b', 'c']) {
      socket.send(JSON.stringify({ kind: 'subscribe', id, channel: 'approvals.changed', input: {} }));
    }
    await waitFor(() => replies.length >= 3);
    socket.close();
    expect(replies.map((reply) => [reply.id, reply.ok, reply.error?.code])).toEqual([
      ['a', true, undefined],
      ['b', true, undefined],
      ['c', false, 'too_many'],
    ]);
  });

  it('answers a WebSocket message nested too deep or carrying NUL with a typed error', async () => {
    const socket = new WebSocket(`ws://${host}/ws`, [WS_PROTOCOL, `${WS_TOKEN_PREFIX}${TOKEN}`]);
    const replies: { kind: string; error?: { code: string } }[] = [];
    socket.on('message', (data) => replies.push(JSON.parse(data.toString())));
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    socket.send(
      `{"kind":"command","id":"x","channel":"settings.set","input":${'['.repeat(40)}${']'.repeat(40)}}`,
    );
    socket.send(
      JSON.stringify({ kind: 'command', id: 'y', channel: 'thread.get', input: { threadId: 'a\u0000' } }),
    );
    await waitFor(() => replies.length >= 2);
    socket.close();
    expect(replies.map((reply) => reply.error?.code)).toEqual(['invalid_input', 'invalid_input']);
  });
});

describe("only Deputy's own pages and scripts talk to it", () => {
  it.each([
    ['a rebound DNS name', { Host: `evil.example:${port}` }],
    ['our address on another port', { Host: '127.0.0.1:1' }],
  ])('refuses %s with 421 before looking at the token', async (_name, hostHeader) => {
    for (const target of ['/api/threads', '/api/health', '/']) {
      expectJsonError(await send('GET', target, { ...hostHeader, ...auth }), 421, 'wrong_host');
    }
  });

  it('refuses a request with no Host at all with the same JSON 421', async () => {
    expectJsonError(await send('GET', '/api/threads', { ...auth }), 421, 'wrong_host');
  });

  it('accepts every loopback name for our port', async () => {
    for (const name of ['127.0.0.1', 'localhost', '[::1]', 'LOCALHOST']) {
      const answer = await send('GET', '/api/threads', { Host: `${name}:${port}`, ...auth });
      expect(answer.status).toBe(200);
    }
  });

  it('refuses an API call from a foreign page (Origin) even with a good token', async () => {
    const answer = await send('GET', '/api/threads', { Host: host, Origin: 'https://evil.example', ...auth });
    expectJsonError(answer, 403, 'forbidden_sender');
    const own = await send('GET', '/api/threads', { Host: host, Origin: `http://${host}`, ...auth });
    expect(own.status).toBe(200);
  });

  // The renderer is served from the API's own origin, so no page ever needs a CORS grant: OPTIONS is a method
  // like any other a route does not serve (405 naming what it does), and a foreign page's preflight is refused.
  it.each([
    ['an API route', '/api/threads', auth, 'GET, HEAD'],
    ['the health route, with no token', '/api/health', {}, 'GET, HEAD'],
    ['the MCP endpoint', '/mcp', auth, 'POST'],
    ['a page of the renderer', '/', {}, 'GET, HEAD'],
  ])('answers OPTIONS on %s 405 with Allow and no CORS grant', async (_name, target, headers, allow) => {
    const answer = await send('OPTIONS', target, { Host: host, ...headers });
    expect(answer.status).toBe(405);
    expect(answer.headers.allow).toBe(allow);
    expect(Object.keys(answer.headers).filter((name) => name.startsWith('access-control-'))).toEqual([]);
  });

  it("refuses a foreign page's CORS preflight 403 before any route, and grants nothing", async () => {
    const answer = await send('OPTIONS', '/api/agent/run', {
      Host: host,
      Origin: 'https://evil.example',
      'Access-Control-Request-Method': 'POST',
      'Access-Control-Request-Headers': 'authorization, content-type',
    });
    expectJsonError(answer, 403, 'forbidden_sender');
    expect(Object.keys(answer.headers).filter((name) => name.startsWith('access-control-'))).toEqual([]);
  });

  it("checks a WebSocket's Origin against our own origins, never against its Host header", async () => {
    const upgrade = (headers: Record<string, string>) =>
      send('GET', '/ws', {
        Upgrade: 'websocket',
        Connection: 'Upgrade',
        'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==',
        'Sec-WebSocket-Version': '13',
        'Sec-WebSocket-Protocol': `${WS_PROTOCOL}, ${WS_TOKEN_PREFIX}${TOKEN}`,
        ...headers,
      });
    // The old check compared Origin with Host: a rebinding page controls both and matched itself.
    expectJsonError(
      await upgrade({ Host: `evil.example:${port}`, Origin: `http://evil.example:${port}` }),
      421,
      'wrong_host',
    );
    expectJsonError(await upgrade({ Host: host, Origin: 'http://evil.example' }), 403, 'forbidden_sender');
    const own = await upgrade({ Host: host, Origin: `http://localhost:${port}` });
    expect(own.status).toBe(101);
  });

  it('keeps /api/health open and says nothing more than ok', async () => {
    const answer = await send('GET', '/api/health', { Host: host });
    expect(answer.status).toBe(200);
    expect(answer.body).toBe('{"ok":true}');
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 3_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
