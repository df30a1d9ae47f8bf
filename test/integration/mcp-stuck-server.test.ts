import { afterEach, describe, expect, it } from 'vitest';
import type { Host } from '../../electron/host/create-host';
import type { RunEvent } from '../../shared/contract';
import { openHost, type HostFixture } from '../support/host-fixture';
import { isRunning, ODD_SERVER, putServer, serverView, stdio, waitForServer } from '../support/mcp-kit';
import { call, say, ScriptedModel } from '../support/scripted-model';

/** How long each call to the stuck server may wait (the server's `callTimeoutSeconds`). */
const LIMIT_S = 2;

/** The longest Deputy's own event loop went without running a timer, sampled every 10 ms while `work` runs. */
async function longestStall<T>(work: Promise<T>): Promise<{ value: T; stallMs: number }> {
  let last = performance.now();
  let stallMs = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    stallMs = Math.max(stallMs, now - last);
    last = now;
  }, 10);
  try {
    return { value: await work, stallMs };
  } finally {
    clearInterval(ticker);
  }
}

const errorOf = (events: RunEvent[], tool: string) =>
  events.find(
    (event): event is Extract<RunEvent, { type: 'tool_result' }> =>
      event.type === 'tool_result' && event.tool === tool,
  )?.error;

/** A server stuck in a busy loop: it answers nothing, not even the cancellation of the call that got it stuck. */
describe('an MCP server stuck in a busy loop', () => {
  let fixture: HostFixture | null = null;
  afterEach(async () => {
    await fixture?.close();
    fixture = null;
  });

  /** A host with the odd server running, each call to it limited to `seconds`, its tools run unasked. */
  async function withOddServer(model: ScriptedModel, seconds: number): Promise<Host> {
    fixture = await openHost(model);
    const { host } = fixture;
    await host.invoke('settings.set', { trustLevel: 'autonomous' });
    await putServer(host, 'odd', { ...stdio(ODD_SERVER), callTimeoutSeconds: seconds, autonomy: 'auto' });
    await waitForServer(host, 'odd', (view) => view.state === 'running');
    return host;
  }

  it('times every call out in words, shows it on its card, blocks nothing, and answers again after Restart', async () => {
    const model = new ScriptedModel(
      call('odd__spin', { intent: 'spin', confidence: 0.9 }),
      say('It is stuck.'),
      call('odd__read-inbox', {}),
      say('Still stuck.'),
      call('odd__read-inbox', {}),
      say('Read it.'),
    );
    const host = await withOddServer(model, LIMIT_S);

    const events: RunEvent[] = [];
    const stuck = await longestStall(host.runToEnd({ prompt: 'Spin' }, (event) => events.push(event)));
    expect(stuck.value.status).toBe('completed');
    expect(errorOf(events, 'odd__spin')).toBe(
      `The MCP server “odd” did not answer spin within ${LIMIT_S} s; the call was abandoned and may or may not have happened.`,
    );
    // Deputy went on as before while the server spun: no timer of its own waited even half a second.
    expect(stuck.stallMs).toBeLessThan(500);

    const startedAt = Date.now();
    const next = await host.runToEnd({ prompt: 'Read my inbox' }, (event) => events.push(event));
    expect(next.status).toBe('completed');
    expect(errorOf(events, 'odd__read-inbox')).toBe(
      `The MCP server “odd” did not answer read-inbox within ${LIMIT_S} s; the call was abandoned and may or may not have happened.`,
    );
    expect(Date.now() - startedAt).toBeLessThan(LIMIT_S * 1_000 + 3_000);

    // The card says the server stopped answering, and what to do, while the connection itself is still open.
    const card = await serverView(host, 'odd');
    expect(card.state).toBe('running');
    expect(card.error).toBe(
      `The MCP server “odd” did not answer read-inbox within ${LIMIT_S} s. If its calls keep going unanswered, Restart it.`,
    );

    const stuckPid = card.pid;
    const restarted = await host.invoke('mcp.restart', { name: 'odd' });
    expect(restarted.server).toMatchObject({ state: 'running', error: null });
    expect(restarted.server.pid).not.toBe(stuckPid);
    expect(isRunning(stuckPid ?? 0)).toBe(false);

    const after: RunEvent[] = [];
    await host.runToEnd({ prompt: 'Read my inbox' }, (event) => after.push(event));
    expect(
      after.some(
        (event) =>
          event.type === 'tool_result' && event.tool === 'odd__read-inbox' && event.state === 'completed',
      ),
    ).toBe(true);
  }, 40_000);

  it('takes the note off its card once a call is answered again', async () => {
    const model = new ScriptedModel(
      call('odd__hang', { intent: 'wait', confidence: 0.9 }),
      say('No answer.'),
      call('odd__read-inbox', {}),
      say('Read it.'),
    );
    const host = await withOddServer(model, 1);
    await host.runToEnd({ prompt: 'Wait for it' });
    expect((await serverView(host, 'odd')).error).toBe(
      'The MCP server “odd” did not answer hang within 1 s. If its calls keep going unanswered, Restart it.',
    );
    await host.runToEnd({ prompt: 'Read my inbox' });
    expect(await serverView(host, 'odd')).toMatchObject({ state: 'running', error: null });
  });
});
