import { afterEach, describe, expect, it } from 'vitest';
import type { RunEvent } from '../../shared/contract';
import { collect, openHost, type HostFixture } from '../support/host-fixture';
import { ODD_SERVER, putServer, stdio, waitForServer } from '../support/mcp-kit';
import { call, say, ScriptedModel } from '../support/scripted-model';

/** What a run is told when the person turns off or removes a server in Settings while it is using that server. */
describe('MCP servers stopped from Settings', () => {
  let fixture: HostFixture | null = null;

  afterEach(async () => {
    await fixture?.close();
    fixture = null;
  });

  /** Starts a run whose call to odd's `hang` never answers, and resolves once that call is under way. */
  async function hangingCall(server: string) {
    const model = new ScriptedModel(
      call(`${server}__hang`, { intent: 'wait', confidence: 0.9 }),
      say('Stopped.'),
    );
    fixture = await openHost(model);
    const { host } = fixture;
    await putServer(host, server, { ...stdio(ODD_SERVER), autonomy: 'auto' });
    await waitForServer(host, server, (view) => view.state === 'running');
    await host.invoke('settings.set', { trustLevel: 'autonomous' });
    const started = host.startRun({ prompt: 'Call hang' });
    const events = collect(host, started.runId);
    await expect
      .poll(() => events.some((event) => event.type === 'tool_call'), { timeout: 10_000 })
      .toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 200));
    return { host, model, events };
  }

  const failedCall = (events: RunEvent[]) =>
    events.find(
      (event): event is Extract<RunEvent, { type: 'tool_result' }> =>
        event.type === 'tool_result' && event.state === 'failed',
    );

  it.each([
    [
      'removed',
      (host: HostFixture['host']) => host.invoke('mcp.delete', { name: 'gone' }),
      'gone',
      'The MCP server "gone" was removed in Settings during hang, so the call was stopped; it may or may not have happened. Its tools are no longer offered.',
    ],
    [
      'turned off',
      (host: HostFixture['host']) => putServer(host, 'off', { ...stdio(ODD_SERVER), enabled: false }),
      'off',
      'The MCP server "off" was turned off in Settings during hang, so the call was stopped; it may or may not have happened. Its tools are not offered until it is turned on again.',
    ],
  ])('ends a call in flight at once, saying the server was %s', async (_how, stop, server, words) => {
    const { host, model, events } = await hangingCall(server);
    const stoppedAt = Date.now();
    await stop(host);
    await expect.poll(() => failedCall(events)?.error, { timeout: 10_000 }).toBe(words);
    expect(Date.now() - stoppedAt).toBeLessThan(2_000);
    await expect.poll(() => model.requests.length, { timeout: 10_000 }).toBe(2);
    expect(JSON.stringify(model.requests[1]?.messages.at(-1))).toContain('mcp_stopped');
  });
});
