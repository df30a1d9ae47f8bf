import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { WS_PROTOCOL, WS_TOKEN_PREFIX } from '../../shared/contract/ws-protocol';
import { serveApi, type ApiServer } from '../support/api-server';
import { openHost, type HostFixture } from '../support/host-fixture';
import { say, ScriptedModel } from '../support/scripted-model';

const TOKEN = 'answers-token-123';
const model = new ScriptedModel();
let fixture: HostFixture;
let served: ApiServer;
let api: ApiServer['api'];

beforeAll(async () => {
  fixture = await openHost(model);
  served = await serveApi(fixture, TOKEN);
  api = served.api;
});
afterAll(async () => {
  await served.server.close();
  await fixture.close();
});

async function expectError(response: Response, status: number, code: string): Promise<string> {
  expect(response.status).toBe(status);
  const body = (await response.json()) as { ok: boolean; error: { code: string; message: string } };
  expect(body).toMatchObject({ ok: false, error: { code } });
  return body.error.message;
}

describe('the local API answers alike on every route', () => {
  it('answers HEAD on a GET route as GET would, without the body', async () => {
    const got = await api('/api/tools');
    const head = await api('/api/tools', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe(got.headers.get('content-type'));
    expect(head.headers.get('content-length')).toBe(got.headers.get('content-length'));
    expect(await head.text()).toBe('');
    expect((await api('/api/threads/nope', { method: 'HEAD' })).status).toBe(404);
    const wrong = await api('/api/threads', { method: 'POST', body: '{}' });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('GET, HEAD');
  });

  it('answers a cancel of a run that never existed 404, and of a finished one cancelled:false', async () => {
    model.script(say('Done.'));
    const run = (await (
      await api('/api/agent/run', { method: 'POST', body: JSON.stringify({ prompt: 'Hi' }) })
    ).json()) as { runId: string };
    const finished = await api(`/api/runs/${run.runId}/cancel`, { method: 'POST' });
    expect(finished.status).toBe(200);
    expect(await finished.json()).toEqual({ cancelled: false });
    expect(await expectError(await api('/api/runs/nope/cancel', { method: 'POST' }), 404, 'not_found')).toBe(
      'There is no run with the id "nope".',
    );
    await expect(fixture.host.invoke('run.cancel', { runId: 'nope' })).rejects.toMatchObject({
      code: 'not_found',
    });
  });

  it('refuses a memories cursor it never handed out, as it does a bad threads cursor', async () => {
    for (const cursor of ['junk', '-1', '1.5', '0x10', '']) {
      await expectError(await api(`/api/memories?cursor=${cursor}`), 400, 'invalid_input');
    }
    expect((await api('/api/memories?cursor=12')).status).toBe(200);
    await expectError(await api('/api/threads?before=%FF'), 400, 'invalid_input');
  });

  it('refuses a count in a query that is not a whole number written out, as 1e1, 0x10 or nothing', async () => {
    for (const path of ['/api/threads?limit=', '/api/audit?limit=', '/api/memories?limit=']) {
      for (const count of ['1e1', '0x10', '', '2.5', 'ten']) {
        await expectError(await api(`${path}${count}`), 400, 'invalid_input');
      }
      expect((await api(`${path}10`)).status).toBe(200);
    }
    await expectError(await api('/api/usage/daily?days=0x10'), 400, 'invalid_input');
    expect((await api('/api/usage/daily?days=7')).status).toBe(200);
  });

  it('refuses an approve or reject body that is JSON but not an object, and still takes none', async () => {
    for (const body of ['[1,2]', '"x"', 'null', '3']) {
      for (const decision of ['approve', 'reject']) {
        const message = await expectError(
          await api(`/api/actions/nope/${decision}`, { method: 'POST', body }),
          400,
          'invalid_input',
        );
        expect(message).toBe('The request body must be a JSON object.');
      }
    }
    await expectError(await api('/api/actions/nope/approve', { method: 'POST' }), 404, 'not_found');
    await expectError(
      await api('/api/actions/nope/reject', { method: 'POST', body: '{}' }),
      404,
      'not_found',
    );
  });

  it('quotes at most 64 characters of an id in an error message', async () => {
    const long = 'a'.repeat(5_000);
    for (const path of [`/api/actions/${long}`, `/api/threads/${long}`, `/api/runs/${long}/cancel`]) {
      const response = await api(path, { method: path.endsWith('cancel') ? 'POST' : 'GET' });
      const message = await expectError(response, 404, 'not_found');
      expect(message).toContain(`"${'a'.repeat(64)}…"`);
      expect(message.length).toBeLessThan(120);
    }
  });

  it('refuses a server’s new secret that does not parse (as its card’s Replace secret sends it), never saying it back', async () => {
    const config = { transport: 'http', url: 'http://127.0.0.1:9/mcp', secretHeaders: ['Authorization'] };
    const value = 'Bearer sk-answers-secret-3f9a71c2';
    const wrong = [
      { headers: { 'Not a header': value } },
      { headers: { Authorization: value }, cookies: { session: value } },
      { headers: { Authorization: 42 } },
      { headers: { Authorization: value.repeat(200) } },
    ];
    for (const secrets of wrong) {
      const body = JSON.stringify({ config: { ...config, enabled: false }, secrets });
      const response = await api('/api/mcp/servers/remote', { method: 'PUT', body });
      expect(await expectError(response, 400, 'invalid_input')).not.toContain('sk-answers');
    }
    // Nothing of them was saved: there is no such server.
    expect(await (await api('/api/mcp/servers')).json()).toEqual({ servers: [] });
  });
});

function openSocket(): Promise<WebSocket> {
  const socket = new WebSocket(served.server.url.replace('http', 'ws') + '/ws', [
    WS_PROTOCOL,
    `${WS_TOKEN_PREFIX}${TOKEN}`,
  ]);
  return new Promise((resolve, reject) => {
    socket.once('open', () => resolve(socket));
    socket.once('error', reject);
  });
}

function collect(socket: WebSocket): Record<string, unknown>[] {
  const messages: Record<string, unknown>[] = [];
  socket.on('message', (data: Buffer) =>
    messages.push(JSON.parse(data.toString()) as Record<string, unknown>),
  );
  return messages;
}

async function until(check: () => boolean): Promise<void> {
  for (let waited = 0; !check(); waited += 10) {
    if (waited > 5_000) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('WebSocket ids', () => {
  // A refusal on an id in use would be read as that id's own answer: it comes as a connection-level error.
  const conflict = (id: string) => ({
    kind: 'error',
    refusedId: id,
    error: { code: 'conflict', message: expect.stringContaining(`"${id}"`) as unknown },
  });

  it('refuses a command on the id of a live subscription, and the subscription goes on', async () => {
    const socket = await openSocket();
    const messages = collect(socket);
    socket.send(JSON.stringify({ kind: 'subscribe', id: 'X', channel: 'run.events', input: {} }));
    await until(() => messages.some((m) => m.id === 'X'));
    socket.send(JSON.stringify({ kind: 'command', id: 'X', channel: 'settings.get', input: {} }));
    await until(() => messages.length === 2);
    expect(messages).toEqual([{ kind: 'reply', id: 'X', ok: true, data: null }, conflict('X')]);
    expect(messages[1]?.error).toMatchObject({
      message:
        'The command with the id "X" was refused: that id is in use by a subscription or a command not yet answered. Send it again with an id of its own.',
    });

    model.script(say('Still here.'));
    socket.send(JSON.stringify({ kind: 'command', id: 'c1', channel: 'run.start', input: { prompt: 'Hi' } }));
    await until(() =>
      messages.some((m) => m.id === 'X' && (m.event as { type?: string })?.type === 'result'),
    );
    socket.close();
  });

  it('refuses a second command on the id of one still in flight, and answers the first once', async () => {
    const socket = await openSocket();
    const messages = collect(socket);
    const command = JSON.stringify({ kind: 'command', id: 'dup', channel: 'settings.get', input: {} });
    socket.send(command);
    socket.send(command);
    await until(() => messages.length === 2);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(messages).toHaveLength(2);
    // On the id, only the first command's own answer.
    expect(messages.filter((m) => m.id === 'dup')).toEqual([
      { kind: 'reply', id: 'dup', ok: true, data: expect.anything() as unknown },
    ]);
    expect(messages).toContainEqual(conflict('dup'));
    socket.send(command);
    await until(() => messages.length === 3);
    expect(messages[2]).toMatchObject({ id: 'dup', ok: true });
    socket.close();
  });

  it('refuses a message that does not parse, sent on the id of a live subscription, off that id', async () => {
    const socket = await openSocket();
    const messages = collect(socket);
    socket.send(JSON.stringify({ kind: 'subscribe', id: 'Y', channel: 'run.events', input: {} }));
    await until(() => messages.length === 1);
    socket.send(JSON.stringify({ kind: 'command', id: 'Y', channel: 42 }));
    socket.send(JSON.stringify({ kind: 'command', id: 'free', channel: 42 }));
    await until(() => messages.length === 3);
    expect(messages[1]).toMatchObject({
      kind: 'error',
      refusedId: 'Y',
      error: {
        code: 'invalid_input',
        message: expect.stringMatching(/^The message with the id "Y" was refused: /),
      },
    });
    expect(messages[1]).not.toHaveProperty('id');
    // A free id still gets its refusal on it, so the client's call ends.
    expect(messages[2]).toMatchObject({
      kind: 'reply',
      id: 'free',
      ok: false,
      error: { code: 'invalid_input' },
    });
    socket.close();
  });
});
