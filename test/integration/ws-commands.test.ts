import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { ModelClient, ModelRequest, ModelStreamEvent } from '../../electron/llm/model-client';
import { startHttpServer, type RunningServer } from '../../electron/server/http-server';
import { WS_PROTOCOL, WS_TOKEN_PREFIX } from '../../shared/contract/ws-protocol';
import { lastPrompt, until } from '../support/gated-model';
import { openHost, type HostFixture } from '../support/host-fixture';
import { call, say } from '../support/scripted-model';

const TOKEN = 'ws-commands-token';
const sure = { intent: 'do what the user asked', reasoning: 'asked', confidence: 0.95, assumptions: [] };

/**
 * Asks to add a task on a prompt's first turn (a side effect a supervised run holds for approval), and holds
 * the turn after an approval until the test releases it: an `approval.decide` is answered with the run's
 * result, so it stays in flight until then.
 */
class TaskThenHold implements ModelClient {
  readonly held: (() => void)[] = [];

  async *stream(request: ModelRequest): AsyncIterable<ModelStreamEvent> {
    const prompt = lastPrompt(request);
    if (prompt !== '') return yield* call('add_task', { description: prompt, ...sure });
    await new Promise<void>((resolve) => this.held.push(resolve));
    yield* say('Added it.');
  }

  releaseAll(): void {
    for (const release of this.held.splice(0)) release();
  }
}

interface Reply {
  kind: string;
  id?: string;
  ok?: boolean;
  error?: { code: string; message: string };
}

const model = new TaskThenHold();
let fixture: HostFixture;
let server: RunningServer;

beforeAll(async () => {
  fixture = await openHost(model);
  server = await startHttpServer({
    host: fixture.host,
    token: TOKEN,
    port: 0,
    rendererDir: fixture.dataDir,
    logError: () => {},
    limits: { maxCommandsPerSocket: 2 },
  });
});
afterAll(async () => {
  model.releaseAll();
  await server.close();
  await fixture.close();
});

async function openSocket(): Promise<{ socket: WebSocket; replies: Reply[] }> {
  const socket = new WebSocket(`ws://127.0.0.1:${server.port}/ws`, [
    WS_PROTOCOL,
    `${WS_TOKEN_PREFIX}${TOKEN}`,
  ]);
  const replies: Reply[] = [];
  socket.on('message', (data: Buffer) => replies.push(JSON.parse(data.toString()) as Reply));
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  return { socket, replies };
}

/** Two runs, each waiting for the approval of its task. */
async function twoApprovals(): Promise<string[]> {
  const paused = await Promise.all(
    ['Buy milk', 'Buy bread'].map((prompt) => fixture.host.runToEnd({ prompt })),
  );
  return paused.map((response) => response.approval?.id ?? '');
}

const command = (id: string, channel: string, input: unknown): string =>
  JSON.stringify({ kind: 'command', id, channel, input });

describe('commands in flight on one WebSocket', () => {
  it('caps them with a typed too_many reply, and takes commands again once answers have gone out', async () => {
    const [first = '', second = ''] = await twoApprovals();
    const { socket, replies } = await openSocket();
    socket.send(command('d1', 'approval.decide', { approvalId: first, decision: 'approve' }));
    socket.send(command('d2', 'approval.decide', { approvalId: second, decision: 'approve' }));
    await until(() => model.held.length === 2);
    socket.send(command('over', 'settings.get', {}));
    await until(() => replies.length === 1);
    expect(replies[0]).toMatchObject({ kind: 'reply', id: 'over', ok: false, error: { code: 'too_many' } });
    expect(replies[0]?.error?.message).toMatch(/2 commands waiting/);

    model.releaseAll();
    await until(() => replies.length === 3);
    expect(replies.slice(1).map((reply) => [reply.id, reply.ok])).toEqual([
      ['d1', true],
      ['d2', true],
    ]);
    socket.send(command('after', 'settings.get', {}));
    await until(() => replies.length === 4);
    expect(replies[3]).toMatchObject({ id: 'after', ok: true });
    socket.close();
  });
});

describe('an unsubscribe naming a command not yet answered', () => {
  it('is refused with a conflict off that id, and the only answer on the id is the command’s own', async () => {
    const [first = ''] = await twoApprovals();
    const { socket, replies } = await openSocket();
    socket.send(command('d1', 'approval.decide', { approvalId: first, decision: 'approve' }));
    await until(() => model.held.length === 1);
    socket.send(JSON.stringify({ kind: 'unsubscribe', id: 'd1' }));
    await until(() => replies.length === 1);
    // A client keying answers by id must not take this for the command's answer: it names the id in words.
    expect(replies[0]).toEqual({
      kind: 'error',
      refusedId: 'd1',
      error: {
        code: 'conflict',
        message:
          'Nothing was unsubscribed: the id "d1" is a command not yet answered, not a subscription. The command goes on, and its answer comes on that id.',
      },
    });

    model.releaseAll();
    await until(() => replies.length === 2);
    expect(replies[1]).toMatchObject({ kind: 'reply', id: 'd1', ok: true, data: { status: 'completed' } });
    expect(replies.filter((reply) => reply.id === 'd1')).toHaveLength(1);
    // An id that names nothing is still a harmless ok, as before.
    socket.send(JSON.stringify({ kind: 'unsubscribe', id: 'never-used' }));
    await until(() => replies.length === 3);
    expect(replies[2]).toMatchObject({ id: 'never-used', ok: true });
    socket.close();
  });
});
