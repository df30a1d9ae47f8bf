import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunEvent } from '../../shared/contract';
import { storeOf, waitForRun } from '../support/durable-kit';
import { collect, openHost, type HostFixture } from '../support/host-fixture';
import { FILESYSTEM_SERVER, ODD_SERVER, putServer, stdio, waitForServer } from '../support/mcp-kit';
import { call, say, ScriptedModel } from '../support/scripted-model';

/** What a run is told when the person turns off or removes a server in Settings while it is using that server. */
describe('MCP servers stopped from Settings', () => {
  let fixture: HostFixture | null = null;
  let folder = '';

  afterEach(async () => {
    await fixture?.close();
    fixture = null;
    if (folder) rmSync(folder, { recursive: true, force: true });
    folder = '';
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
      'The MCP server “gone” was removed in Settings during hang, so the call was stopped; it may or may not have happened. Its tools are no longer offered.',
    ],
    [
      'turned off',
      (host: HostFixture['host']) => putServer(host, 'off', { ...stdio(ODD_SERVER), enabled: false }),
      'off',
      'The MCP server “off” was turned off in Settings during hang, so the call was stopped; it may or may not have happened. Its tools are not offered until it is turned on again.',
    ],
  ])('ends a call in flight at once, saying the server was %s', async (_how, stop, server, words) => {
    const { host, model, events } = await hangingCall(server);
    const stoppedAt = Date.now();
    // The call ends as the stop begins, not once the server's process is gone: timed from there.
    const stopping = stop(host);
    await expect.poll(() => failedCall(events)?.error, { timeout: 10_000 }).toBe(words);
    expect(Date.now() - stoppedAt).toBeLessThan(2_000);
    await stopping;
    await expect.poll(() => model.requests.length, { timeout: 10_000 }).toBe(2);
    expect(JSON.stringify(model.requests[1]?.messages.at(-1))).toContain('mcp_stopped');
  });

  it('says nothing ran of a call that waited for the server to start when it was turned off, and records it failed', async () => {
    const model = new ScriptedModel(call('slow__hang', { intent: 'wait', confidence: 0.9 }), say('Not run.'));
    fixture = await openHost(model);
    const { host } = fixture;
    const slow = { ...stdio(ODD_SERVER), env: { ODD_START_DELAY_MS: '2500' }, autonomy: 'auto' };
    await putServer(host, 'slow', slow);
    await waitForServer(host, 'slow', (view) => view.state === 'running');
    await host.invoke('settings.set', { trustLevel: 'autonomous' });
    // Restarted, it takes seconds to start again: the call waits for it, and is never sent.
    const restarted = host.invoke('mcp.restart', { name: 'slow' });
    await waitForServer(host, 'slow', (view) => view.state === 'starting');
    const started = host.startRun({ prompt: 'Call hang' });
    const events = collect(host, started.runId);
    await expect
      .poll(() => events.some((event) => event.type === 'tool_call'), { timeout: 10_000 })
      .toBe(true);
    await putServer(host, 'slow', { ...slow, enabled: false });
    await restarted;
    await expect
      .poll(() => failedCall(events)?.error, { timeout: 10_000 })
      .toBe(
        'The MCP server “slow” was turned off in Settings before hang was sent to it, so nothing ran. Its tools are not offered until it is turned on again.',
      );
    const told = JSON.stringify(model.requests[1]?.messages.at(-1));
    expect(told).toContain('mcp_stopped');
    expect(told).not.toContain('may or may not have happened');
    const action = storeOf(host).actions.get(failedCall(events)?.actionId ?? '');
    expect(action).toMatchObject({ ledgerState: 'failed', errorCode: 'mcp_stopped' });
  });

  it('turns down at once what waits for approval on a server removed or turned off, and the runs go on', async () => {
    folder = mkdtempSync(join(tmpdir(), 'deputy-mcp-fs-'));
    const target = join(folder, 'later.txt');
    const write = (name: string) =>
      call(`${name}__write_file`, { path: target, content: 'x', intent: 'Write it', confidence: 0.95 });
    // Both runs ask before either server goes, so the model is asked twice, then answered twice.
    const model = new ScriptedModel(write('gone'), write('off'), say('Not written.'), say('Not written.'));
    fixture = await openHost(model);
    const { host } = fixture;
    for (const name of ['gone', 'off']) {
      await putServer(host, name, stdio(FILESYSTEM_SERVER, [folder]));
      await waitForServer(host, name, (server) => server.state === 'running');
    }
    const cases = [
      {
        waiting: await host.runToEnd({ prompt: 'Write later.txt' }),
        stop: () => host.invoke('mcp.delete', { name: 'gone' }),
        code: 'mcp_server_removed',
        note: 'Turned down by Deputy: the MCP server "gone" was removed in Settings.',
        words:
          'The MCP server \\"gone\\" was removed in Settings while this waited for approval, so it was not run. Its tools are no longer offered',
      },
      {
        waiting: await host.runToEnd({ prompt: 'Write later.txt' }),
        stop: () => putServer(host, 'off', stdio(FILESYSTEM_SERVER, [folder], { enabled: false })),
        code: 'mcp_server_turned_off',
        note: 'Turned down by Deputy: the MCP server "off" was turned off in Settings.',
        words:
          'The MCP server \\"off\\" was turned off in Settings while this waited for approval, so it was not run. Its tools are not offered until the user turns it on again.',
      },
    ];
    for (const [index, { waiting, stop, code, note, words }] of cases.entries()) {
      expect(waiting.status).toBe('awaiting_confirmation');
      const approvalId = waiting.approval?.id ?? '';
      await stop();
      // Nobody decides: the approval is settled, and the run has gone on to its model's next answer.
      expect((await waitForRun(host, waiting.threadId, waiting.runId)).status).toBe('completed');
      expect(host.approvals.get(approvalId)).toMatchObject({ status: 'rejected', decisionNote: note });
      const told = JSON.stringify(model.requests[index + 2]?.messages.at(-1));
      expect(told).toContain(code);
      expect(told).toContain(words);
      await expect(host.invoke('approval.decide', { approvalId, decision: 'approve' })).rejects.toThrow(
        /already rejected/,
      );
    }
    expect(existsSync(target)).toBe(false);
  });
});
