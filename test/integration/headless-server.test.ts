import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { startHttpServer, type RunningServer } from '../../electron/server/http-server';
import { ModelError } from '../../electron/llm/model-client';
import { RunEvent, RunResponse } from '../../shared/contract';
import { WS_PROTOCOL, WS_TOKEN_PREFIX } from '../../shared/contract/ws-protocol';
import { call, say, ScriptedModel } from '../support/scripted-model';
import { openHost, type HostFixture } from '../support/host-fixture';

const TOKEN = 'test-token-123';
const model = new ScriptedModel();
let fixture: HostFixture;
let server: RunningServer;

beforeAll(async () => {
  fixture = await openHost(model);
  const rendererDir = join(fixture.dataDir, 'renderer');
  mkdirSync(rendererDir);
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Deputy</title>');
  mkdirSync(join(rendererDir, 'assets'));
  writeFileSync(
    join(rendererDir, 'assets', 'index-abc123.js'),
    `console.log(${JSON.stringify('x'.repeat(5_000))});`,
  );
  writeFileSync(join(rendererDir, 'assets', 'index-abc123.js.map'), '{"sources":["/secret/source.ts"]}');
  server = await startHttpServer({
    host: fixture.host,
    token: TOKEN,
    port: 0,
    rendererDir,
    logError: () => {},
  });
});
afterAll(async () => {
  await server.close();
  await fixture.close();
});

function api(path: string, init: RequestInit & { token?: string | null } = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  if (init.token !== null) headers.set('authorization', `Bearer ${init.token ?? TOKEN}`);
  if (init.body !== undefined && !headers.has('content-type'))
    headers.set('content-type', 'application/json');
  return fetch(`${server.url}${path}`, { ...init, headers });
}

describe('static files', () => {
  it('serves hashed assets compressed with a long cache, and never a source map', async () => {
    const asset = await fetch(`${server.url}/assets/index-abc123.js`, {
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-encoding')).toBe('gzip');
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await asset.text()).toContain('x'.repeat(5_000));
    const map = await fetch(`${server.url}/assets/index-abc123.js.map`);
    expect(await map.text()).not.toContain('/secret/source.ts');
    const page = await fetch(`${server.url}/`);
    expect(page.headers.get('cache-control')).toBe('no-store');
  });
});

describe('settings over HTTP', () => {
  it('takes back what GET gave (read-only facts dropped, not refused)', async () => {
    const current = (await (await api('/api/settings')).json()) as Record<string, unknown>;
    expect(current).toHaveProperty('isGeminiConfigured');
    const changed = await api('/api/settings', {
      method: 'PUT',
      body: JSON.stringify({
        ...current,
        userName: 'Round Trip',
        isGeminiConfigured: !current.isGeminiConfigured,
      }),
    });
    expect(changed.status).toBe(200);
    const after = (await changed.json()) as Record<string, unknown>;
    expect(after.userName).toBe('Round Trip');
    expect(after.isGeminiConfigured).toBe(current.isGeminiConfigured);
  });
});

describe('headless HTTP API', () => {
  it('binds to loopback', () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('runs an agent request and answers in the runtime spec shape', async () => {
    await fixture.host.invoke('settings.set', { trustLevel: 'autonomous' });
    model.script(
      call('add_task', { description: 'Buy milk', intent: 'add a task', confidence: 0.95 }),
      say('Added.'),
    );
    const response = await api('/api/agent/run', {
      method: 'POST',
      body: JSON.stringify({ prompt: 'Add milk' }),
    });
    expect(response.status).toBe(200);
    const body = RunResponse.parse(await response.json());
    expect(body).toMatchObject({
      ok: true,
      status: 'completed',
      mode: 'tool_call',
      tool: 'add_task',
      summary: 'Added.',
    });
  });

  it('answers 503 model_key_rejected when Gemini refuses the key, not a 200 and not "no key"', async () => {
    model.script(
      new ModelError('key_rejected', 'Gemini rejected the API key (HTTP 400): API key not valid.'),
    );
    const response = await api('/api/agent/run', {
      method: 'POST',
      body: JSON.stringify({ prompt: 'Hello' }),
    });
    expect(response.status).toBe(503);
    const body = (await response.json()) as { ok: boolean; error: { code: string; message: string } };
    expect(body.ok).toBe(false);
    expect(body.error.code).toBe('model_key_rejected');
    expect(body.error.message).toContain('Gemini rejected the API key');
  });

  it('streams NDJSON events ending with the result', async () => {
    model.script(say('Hel', 'lo'));
    const response = await api('/api/agent/run/stream', {
      method: 'POST',
      body: JSON.stringify({ prompt: 'Hi' }),
    });
    expect(response.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
    const lines = (await response.text()).trim().split('\n');
    const events = lines.map((line) => RunEvent.parse(JSON.parse(line)));
    expect(events[0]).toMatchObject({ type: 'status', status: 'queued' });
    expect(events.filter((e) => e.type === 'delta').map((e) => (e.type === 'delta' ? e.delta : ''))).toEqual([
      'Hel',
      'lo',
    ]);
    expect(events.at(-1)).toMatchObject({
      type: 'result',
      result: { status: 'completed', summary: 'Hello' },
    });
  });

  it.each([
    ['no token', { token: null }, 401, 'unauthorized'],
    ['a wrong token', { token: 'nope' }, 401, 'unauthorized'],
    ['malformed JSON', { body: '{"prompt":' }, 400, 'invalid_input'],
    ['a wrong type', { body: JSON.stringify({ prompt: 42 }) }, 400, 'invalid_input'],
    ['a missing field', { body: JSON.stringify({ threadId: 'x' }) }, 400, 'invalid_input'],
    ['an empty body', { body: '' }, 400, 'invalid_input'],
    [
      'a non-JSON content type',
      { body: 'prompt=hi', headers: { 'content-type': 'text/plain' } },
      400,
      'invalid_input',
    ],
    [
      'a body over 1 MB',
      { body: JSON.stringify({ prompt: 'x'.repeat(1_100_000) }) },
      413,
      'payload_too_large',
    ],
    ['an unknown thread', { body: JSON.stringify({ prompt: 'x', threadId: 'missing' }) }, 404, 'not_found'],
  ])('answers %s with a JSON 4xx and keeps serving', async (_name, init, status, code) => {
    const response = await api('/api/agent/run', { method: 'POST', body: '{}', ...init });
    expect(response.status).toBe(status);
    expect(await response.json()).toMatchObject({ ok: false, error: { code } });
    expect((await api('/api/health')).status).toBe(200);
  });

  it('names the field that is wrong', async () => {
    const response = await api('/api/agent/run', {
      method: 'POST',
      body: JSON.stringify({ prompt: 'x', conversation: [{ role: 'bot', text: 'x' }] }),
    });
    const body = (await response.json()) as { error: { message: string } };
    expect(body.error.message).toContain('conversation.0.role');
  });

  it('answers unknown routes with 404 and wrong methods with 405', async () => {
    expect((await api('/api/nothing')).status).toBe(404);
    const wrongMethod = await api('/api/agent/run');
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('POST');
  });

  it('lists, shows, approves and refuses to approve twice over /api/actions', async () => {
    await api('/api/settings', { method: 'PUT', body: JSON.stringify({ trustLevel: 'supervised' }) });
    model.script(
      call('add_task', { description: 'Call mum', intent: 'add', confidence: 0.9 }),
      say('Added.'),
    );
    const paused = RunResponse.parse(
      await (
        await api('/api/agent/run', { method: 'POST', body: JSON.stringify({ prompt: 'Remind me' }) })
      ).json(),
    );
    expect(paused).toMatchObject({ status: 'awaiting_confirmation', mode: 'approval_required' });
    const approvalId = paused.approval?.id ?? '';
    const pending = (await (await api('/api/actions/pending')).json()) as { approvals: { id: string }[] };
    expect(pending.approvals.map((a) => a.id)).toContain(approvalId);
    const detail = await (await api(`/api/actions/${paused.actionId}`)).json();
    expect(detail).toMatchObject({
      action: { state: 'awaiting_confirmation' },
      approval: { id: approvalId },
    });

    const approved = await api(`/api/actions/${approvalId}/approve`, { method: 'POST' });
    expect(approved.status).toBe(200);
    expect(RunResponse.parse(await approved.json())).toMatchObject({
      status: 'completed',
      summary: 'Added.',
    });
    const again = await api(`/api/actions/${approvalId}/approve`, { method: 'POST' });
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ ok: false, error: { code: 'approval_decided' } });
    expect((await api('/api/actions/nope')).status).toBe(404);
  });

  it('rejects and edits over /api/actions, with a 400 for arguments that do not fit', async () => {
    model.script(call('add_task', { description: 'A', intent: 'add', confidence: 0.9 }), say('Not added.'));
    const first = RunResponse.parse(
      await (await api('/api/agent/run', { method: 'POST', body: JSON.stringify({ prompt: 'A' }) })).json(),
    );
    const rejected = await api(`/api/actions/${first.approval?.id}/reject`, {
      method: 'POST',
      body: JSON.stringify({ reason: 'not now' }),
    });
    expect(await rejected.json()).toMatchObject({ status: 'completed', summary: 'Not added.' });

    model.script(call('add_task', { description: 'B', intent: 'add', confidence: 0.9 }), say('Added B2.'));
    const second = RunResponse.parse(
      await (await api('/api/agent/run', { method: 'POST', body: JSON.stringify({ prompt: 'B' }) })).json(),
    );
    const bad = await api(`/api/actions/${second.approval?.id}/edit`, {
      method: 'POST',
      body: JSON.stringify({ args: { description: '' } }),
    });
    expect(bad.status).toBe(400);
    const edited = await api(`/api/actions/${second.approval?.id}/edit`, {
      method: 'POST',
      body: JSON.stringify({ args: { description: 'B2' } }),
    });
    expect(await edited.json()).toMatchObject({ status: 'completed', toolArgs: { description: 'B2' } });
  });

  it('reads and changes settings', async () => {
    const put = await api('/api/settings', { method: 'PUT', body: JSON.stringify({ userName: 'Ada' }) });
    expect(await put.json()).toMatchObject({ userName: 'Ada', isGeminiConfigured: true });
    expect(await (await api('/api/settings')).json()).toMatchObject({ userName: 'Ada' });
    const bad = await api('/api/settings', { method: 'PUT', body: JSON.stringify({ maxLoopSteps: 'lots' }) });
    expect(bad.status).toBe(400);
  });

  it('serves the renderer with a strict CSP, and never a file outside it', async () => {
    const page = await fetch(`${server.url}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    const escape = await fetch(`${server.url}/..%2f..%2fdeputy.db`);
    expect(await escape.text()).toContain('<title>Deputy</title>');
  });
});

function openSocket(options: { token?: string; origin?: string } = {}): Promise<WebSocket> {
  const url = server.url.replace('http', 'ws') + '/ws';
  const socket = new WebSocket(url, [WS_PROTOCOL, `${WS_TOKEN_PREFIX}${options.token ?? TOKEN}`], {
    ...(options.origin && { origin: options.origin }),
  });
  return new Promise((resolve, reject) => {
    socket.once('open', () => resolve(socket));
    socket.once('unexpected-response', (_req, res) => reject(new Error(`refused ${res.statusCode}`)));
    socket.once('error', reject);
  });
}

function nextMessages(socket: WebSocket, count: number): Promise<Record<string, unknown>[]> {
  const messages: Record<string, unknown>[] = [];
  return new Promise((resolve) => {
    const onMessage = (data: Buffer): void => {
      messages.push(JSON.parse(data.toString()) as Record<string, unknown>);
      if (messages.length === count) {
        socket.off('message', onMessage);
        resolve(messages);
      }
    };
    socket.on('message', onMessage);
  });
}

describe('WebSocket transport', () => {
  it('refuses a wrong token and a foreign origin', async () => {
    await expect(openSocket({ token: 'wrong' })).rejects.toThrow('401');
    await expect(openSocket({ origin: 'https://evil.example' })).rejects.toThrow('403');
  });

  it('answers commands and rejects bad input with a typed error', async () => {
    const socket = await openSocket({ origin: server.url });
    const replies = nextMessages(socket, 4);
    socket.send(JSON.stringify({ kind: 'command', id: '1', channel: 'settings.get', input: {} }));
    socket.send(JSON.stringify({ kind: 'command', id: '2', channel: 'thread.get', input: { threadId: 5 } }));
    socket.send(JSON.stringify({ kind: 'command', id: '3', channel: 'files.delete', input: {} }));
    socket.send('not json');
    const byId = new Map((await replies).map((message) => [message.id ?? 'none', message]));
    expect(byId.get('1')).toMatchObject({ kind: 'reply', ok: true, data: { model: expect.any(String) } });
    expect(byId.get('2')).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(byId.get('3')).toMatchObject({ ok: false, error: { code: 'unknown_channel' } });
    expect(byId.get('none')).toMatchObject({ kind: 'error', error: { code: 'invalid_input' } });
    socket.close();
  });

  it('streams run events to a subscription and stops after unsubscribe', async () => {
    model.script(say('Over ', 'the socket'));
    const socket = await openSocket();
    const received: Record<string, unknown>[] = [];
    const done = new Promise<void>((resolve) => {
      socket.on('message', (data: Buffer) => {
        const message = JSON.parse(data.toString()) as Record<string, unknown>;
        received.push(message);
        const event = message.event as { type?: string } | undefined;
        if (event?.type === 'result') resolve();
      });
    });
    socket.send(JSON.stringify({ kind: 'subscribe', id: 's1', channel: 'run.events', input: {} }));
    socket.send(JSON.stringify({ kind: 'command', id: 'c1', channel: 'run.start', input: { prompt: 'Hi' } }));
    await done;
    const deltas = received
      .filter((m) => m.kind === 'event' && (m.event as { type: string }).type === 'delta')
      .map((m) => (m.event as { delta: string }).delta);
    expect(deltas).toEqual(['Over ', 'the socket']);
    expect(received.find((m) => m.id === 'c1')).toMatchObject({
      ok: true,
      data: { runId: expect.any(String) },
    });
    const answersOnS1 = () => received.filter((m) => m.kind === 'reply' && m.id === 's1').length;
    socket.send(JSON.stringify({ kind: 'unsubscribe', id: 's1' }));
    // The host answers an unsubscribe once it has let the subscription go.
    await expect.poll(answersOnS1).toBe(2);
    expect(fixture.host.events.subscriberCount).toBe(0);
    socket.close();
  });
});
