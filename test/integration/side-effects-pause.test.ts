import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { serveApi } from '../support/api-server';
import { startHttpServer, type RunningServer } from '../../electron/server/http-server';
import type { SideEffectsChangedEvent } from '../../shared/contract';
import { call, say, ScriptedModel } from '../support/scripted-model';
import { collect, openHost, type HostFixture } from '../support/host-fixture';

const sure = { intent: 'do what the person asked', confidence: 0.95 };
const addTask = (description: string, id: string) => call('add_task', { description, ...sure }, id);

let fixture: HostFixture | undefined;
let server: RunningServer | undefined;
afterEach(async () => {
  await server?.close();
  await fixture?.close();
  fixture = server = undefined;
});

async function open(model: ScriptedModel, dataDir?: string): Promise<HostFixture> {
  fixture = await openHost(model, dataDir ? { dataDir } : {});
  return fixture;
}

async function openTasks(fixtureHost: HostFixture, model: ScriptedModel): Promise<string[]> {
  model.script(call('list_tasks', { status: 'all' }, `list-${model.requests.length}`), say('Listed.'));
  const done = await fixtureHost.host.runToEnd({ prompt: 'List my tasks' });
  return (done.output as { tasks: { description: string }[] }).tasks.map((task) => task.description);
}

describe('Pause all side effects', () => {
  it('refuses a side effect in words while paused, lets reads through, and is audited each way', async () => {
    const model = new ScriptedModel();
    const fx = await open(model);
    const { host } = fx;
    await host.invoke('settings.set', { trustLevel: 'autonomous', requireApprovalForFirstContact: false });
    const flips: SideEffectsChangedEvent[] = [];
    host.subscribe('sideEffects.changed', {}, (event) => flips.push(event));
    expect(flips.map((event) => event.state.isPaused)).toEqual([false]);

    const paused = await host.invoke('sideEffects.set', { isPaused: true });
    expect(paused).toMatchObject({ isPaused: true, isDisabledByEnvironment: false });
    expect((await host.invoke('settings.get', {})).areSideEffectsPaused).toBe(true);

    model.script(addTask('Renew passport', 'c1'), say('I could not add it.'));
    const refused = await host.runToEnd({ prompt: 'Add a task to renew my passport' });
    // The model is told why, in words it can pass on.
    expect(JSON.stringify(model.requests.at(-1))).toContain('All side effects are paused');
    expect(refused.status).toBe('completed');
    expect(await openTasks(fx, model)).toEqual([]);

    await host.invoke('sideEffects.set', { isPaused: false });
    model.script(addTask('Renew passport', 'c2'), say('Added.'));
    await host.runToEnd({ prompt: 'Add a task to renew my passport' });
    expect(await openTasks(fx, model)).toEqual(['Renew passport']);

    expect(flips.map((event) => event.state.isPaused)).toEqual([false, true, false]);
    const records = (await host.invoke('audit.list', {})).entries.filter((entry) => entry.kind === 'record');
    expect(records.map((entry) => entry.actionType).sort()).toEqual([
      'side_effects_paused',
      'side_effects_resumed',
    ]);
    expect(records.every((entry) => entry.authority.approvedBy === 'person')).toBe(true);
    // Saying the same thing again adds nothing.
    await host.invoke('sideEffects.set', { isPaused: false });
    expect((await host.invoke('audit.list', {})).entries.filter((e) => e.kind === 'record')).toHaveLength(2);
    expect((await host.invoke('audit.verifyChain', {})).ok).toBe(true);
  });

  it('holds an approval while paused (it stays pending), and holds undo', async () => {
    const model = new ScriptedModel();
    const { host } = await open(model);
    model.script(addTask('Buy milk', 'c1'), say('Added.'));
    const waiting = await host.runToEnd({ prompt: 'Add buy milk' });
    const approvalId = waiting.approval?.id ?? '';
    expect(waiting.status).toBe('awaiting_confirmation');

    await host.invoke('sideEffects.set', { isPaused: true });
    await expect(host.invoke('approval.decide', { approvalId, decision: 'approve' })).rejects.toMatchObject({
      code: 'conflict',
      message: expect.stringContaining('press Resume'),
    });
    await expect(
      host.invoke('approval.edit', { approvalId, args: { description: 'Buy oat milk' } }),
    ).rejects.toMatchObject({ code: 'conflict' });
    expect((await host.invoke('approval.list', {})).approvals.map((a) => a.id)).toEqual([approvalId]);

    await host.invoke('sideEffects.set', { isPaused: false });
    const done = await host.invoke('approval.decide', { approvalId, decision: 'approve' });
    expect(done.status).toBe('completed');
    const added = (await host.invoke('audit.list', { tool: 'add_task' })).entries[0];
    if (!added) throw new Error('no audit entry for add_task');

    await host.invoke('sideEffects.set', { isPaused: true });
    const undone = host.invoke('audit.undo', { id: added.id });
    await expect(undone).rejects.toMatchObject({ message: expect.stringContaining('paused') });
  });

  it('is kept in SQLite across a restart, and a run left mid-way waits for Resume', async () => {
    const model = new ScriptedModel();
    const first = await open(model);
    await first.host.invoke('sideEffects.set', { isPaused: true });
    await first.stop();

    fixture = await openHost(model, { dataDir: first.dataDir });
    expect(await fixture.host.invoke('sideEffects.get', {})).toMatchObject({
      isPaused: true,
      changedAt: expect.any(String),
    });
    const events = collect(fixture.host);
    await fixture.host.invoke('sideEffects.set', { isPaused: false });
    // Nothing was left unfinished here, so Resume has nothing to pick up; it must not fail either.
    expect(events.filter((event) => event.type === 'error')).toEqual([]);
  });

  it('is read and set over HTTP, and bad input is a 400', async () => {
    const fx = await open(new ScriptedModel());
    const rendererDir = join(fx.dataDir, 'renderer');
    mkdirSync(rendererDir);
    server = await startHttpServer({
      host: fx.host,
      token: 't0ken',
      port: 0,
      rendererDir,
      logError: () => {},
    });
    const api = (init: RequestInit = {}) =>
      fetch(`${server?.url}/api/side-effects`, {
        ...init,
        headers: { authorization: 'Bearer t0ken', 'content-type': 'application/json' },
      });
    expect(await (await api()).json()).toMatchObject({ isPaused: false });
    const put = await api({ method: 'PUT', body: JSON.stringify({ isPaused: true }) });
    expect(put.status).toBe(200);
    expect(await put.json()).toMatchObject({ isPaused: true });
    expect((await fx.host.invoke('settings.get', {})).areSideEffectsPaused).toBe(true);
    for (const body of ['{"isPaused":"yes"}', '{}', '{"isPaused":true,"extra":1}', 'not json']) {
      const bad = await api({ method: 'PUT', body });
      expect(bad.status).toBe(400);
    }
  });

  it('refuses an MCP client’s side effect too, while its reads go on', async () => {
    const fx = await openHost(null, { env: { GEMINI_API_KEY: '' } });
    fixture = fx;
    const api = await serveApi(fx, 'mcp-pause-token-0123456789');
    server = api.server;
    await fx.host.invoke('sideEffects.set', { isPaused: true });
    const client = new Client({ name: 'pause-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${api.server.url}/mcp`), {
        requestInit: { headers: { authorization: 'Bearer mcp-pause-token-0123456789' } },
      }),
    );
    const added = await client.callTool({ name: 'add_task', arguments: { description: 'Renew passport' } });
    expect(added.isError).toBe(true);
    expect(JSON.stringify(added.content)).toContain('All side effects are paused');
    expect((await fx.host.invoke('approval.list', { status: 'pending' })).approvals).toEqual([]);
    const listed = await client.callTool({ name: 'list_tasks', arguments: {} });
    expect(listed.isError).toBeFalsy();
    await client.close();
  });
});
