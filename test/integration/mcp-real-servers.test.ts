import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { McpServerConfig, type RunEvent } from '../../shared/contract';
import { BoundedLog } from '../../electron/mcp/bounded-log';
import { McpConnection } from '../../electron/mcp/mcp-connection';
import { ToolError } from '../../electron/tools/tool';
import { storeOf } from '../support/durable-kit';
import { collect, openHost, type HostFixture } from '../support/host-fixture';
import {
  EVERYTHING_SERVER,
  FILESYSTEM_SERVER,
  isRunning,
  MALFORMED_TOOLS_SERVER,
  ODD_SERVER,
  putServer,
  stdio,
  waitForServer,
  watchServer,
} from '../support/mcp-kit';
import { call, say, ScriptedModel } from '../support/scripted-model';

// Each case starts real servers and waits on them: on a loaded machine one took 24 s where it takes 10 alone.
vi.setConfig({ testTimeout: 60_000 });

/**
 * The real MCP servers from the npm registry (server-filesystem on a temp folder, server-everything), and one
 * that misbehaves, started by the test as child processes and used by runs through Deputy's policy.
 */
describe('MCP servers as tools', () => {
  let fixture: HostFixture | null = null;
  let folder = '';

  afterEach(async () => {
    await fixture?.close();
    fixture = null;
    // A server a failing test left running (its pid is in the folder), stopped before its folder goes.
    const pidFile = folder ? join(folder, 'odd.pid') : '';
    if (pidFile && existsSync(pidFile)) {
      try {
        process.kill(Number(readFileSync(pidFile, 'utf8')), 'SIGKILL');
      } catch {
        // gone, as it should be
      }
    }
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  const toolResults = (events: RunEvent[]) =>
    events.filter(
      (event): event is Extract<RunEvent, { type: 'tool_result' }> => event.type === 'tool_result',
    );

  it('lists the filesystem tools, reads without approval, and writes only after approval', async () => {
    folder = mkdtempSync(join(tmpdir(), 'deputy-mcp-fs-'));
    writeFileSync(join(folder, 'notes.txt'), 'the plan is in the drawer');
    const target = join(folder, 'answer.txt');
    const model = new ScriptedModel(
      call('fs__read_text_file', { path: join(folder, 'notes.txt') }),
      say('It says the plan is in the drawer.'),
      call('fs__write_file', {
        path: target,
        content: 'hello from Deputy',
        intent: 'Write the file',
        confidence: 0.95,
      }),
      say('Written.'),
    );
    fixture = await openHost(model);
    const { host } = fixture;
    await putServer(host, 'fs', stdio(FILESYSTEM_SERVER, [folder]));
    const view = await waitForServer(host, 'fs', (server) => server.state === 'running');
    const names = view.tools.map((tool) => tool.name);
    expect(names).toEqual(
      expect.arrayContaining(['fs__read_text_file', 'fs__write_file', 'fs__list_directory']),
    );
    expect(view.tools.find((tool) => tool.name === 'fs__read_text_file')).toMatchObject({
      hasSideEffects: false,
    });
    expect(view.tools.find((tool) => tool.name === 'fs__write_file')).toMatchObject({
      hasSideEffects: true,
      risk: 'high',
    });
    // The model is offered the namespaced tools.
    expect(host.toolCatalog().map((tool) => tool.name)).toContain('fs__write_file');

    const read = await host.runToEnd({ prompt: 'What do my notes say?' });
    expect(read.status).toBe('completed');
    const readResult = JSON.stringify(model.requests[1]?.messages.at(-1));
    expect(readResult).toContain('the plan is in the drawer');

    const events: RunEvent[] = [];
    const write = await host.runToEnd({ prompt: 'Write hello from Deputy to answer.txt' }, (event) =>
      events.push(event),
    );
    expect(write.status).toBe('awaiting_confirmation');
    expect(write.approval?.tool).toBe('fs__write_file');
    expect(existsSync(target)).toBe(false);
    const approved = await host.invoke('approval.decide', {
      approvalId: write.approval?.id ?? '',
      decision: 'approve',
    });
    expect(approved.status).toBe('completed');
    expect(readFileSync(target, 'utf8')).toBe('hello from Deputy');
  });

  it('answers a server killed mid-call with a typed error, then restarts it and calls it again', async () => {
    const model = new ScriptedModel(
      call('everything__trigger-long-running-operation', { duration: 30, steps: 30 }),
      say('It stopped.'),
      call('everything__echo', { message: 'back again' }),
      say('Echoed.'),
    );
    fixture = await openHost(model);
    const { host } = fixture;
    await putServer(host, 'everything', stdio(EVERYTHING_SERVER, ['stdio']));
    const running = await waitForServer(host, 'everything', (server) => server.state === 'running');
    expect(running.tools.map((tool) => tool.name)).toEqual(
      expect.arrayContaining(['everything__echo', 'everything__get-tiny-image']),
    );
    const pid = running.pid ?? 0;
    expect(pid).toBeGreaterThan(0);

    const started = host.startRun({ prompt: 'Run the long operation' });
    const events = collect(host, started.runId);
    const deadline = Date.now() + 10_000;
    while (!events.some((event) => event.type === 'tool_call') && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20));
    await new Promise((resolve) => setTimeout(resolve, 300));
    process.kill(pid, 'SIGKILL');

    const restarted = await waitForServer(
      host,
      'everything',
      (server) => server.state === 'running' && server.restarts >= 1 && server.pid !== pid,
    );
    expect(restarted.pid).not.toBe(pid);
    const failed = toolResults(events).find((event) => event.state === 'failed');
    // It may be left Failed if it keeps stopping, so the call does not promise that it is being restarted.
    expect(failed?.error).toBe(
      'The MCP server “everything” stopped during trigger-long-running-operation, so the call may or may not have happened. Deputy starts the server again, unless it keeps stopping right after it starts.',
    );
    expect(JSON.stringify(model.requests[1]?.messages.at(-1))).toContain('mcp_server_died');

    const again = await host.runToEnd({ prompt: 'Echo back again' });
    expect(again.status).toBe('completed');
    expect(JSON.stringify(model.requests[3]?.messages.at(-1))).toContain('Echo: back again');
    const { lines } = await host.invoke('mcp.log', { name: 'everything' });
    expect(lines.join('\n')).toMatch(/exited or closed/);
  });

  it('stops a call the server never answers at its time limit, and survives garbage on stdout', async () => {
    const model = new ScriptedModel(
      call('odd__garbage', {}),
      say('Fine.'),
      call('odd__hang', { what: 'x', intent: 'wait', confidence: 0.9 }),
      say('It hung.'),
    );
    fixture = await openHost(model, { env: {} });
    const { host } = fixture;
    await putServer(host, 'odd', { ...stdio(ODD_SERVER), callTimeoutSeconds: 1, autonomy: 'auto' });
    await waitForServer(host, 'odd', (server) => server.state === 'running');
    await host.invoke('settings.set', { trustLevel: 'autonomous' });

    const garbage = await host.runToEnd({ prompt: 'Try the garbage tool' });
    expect(garbage.status).toBe('completed');
    expect(JSON.stringify(model.requests[1]?.messages.at(-1))).toContain('still here');

    const startedAt = Date.now();
    const events: RunEvent[] = [];
    const hung = await host.runToEnd({ prompt: 'Call hang with what x' }, (event) => events.push(event));
    expect(hung.status).toBe('completed');
    expect(Date.now() - startedAt).toBeLessThan(10_000);
    expect(toolResults(events).find((event) => event.tool === 'odd__hang')?.error).toMatch(
      /did not answer hang within 1 s/,
    );
    const { lines } = await host.invoke('mcp.log', { name: 'odd' });
    expect(lines.join('\n')).toContain('a line on stderr from the odd server');
    expect((await waitForServer(host, 'odd', () => true)).state).toBe('running');
  });

  it('says an answer over 10 MB was too large to read, not that the server died, and restarts it', async () => {
    const model = new ScriptedModel(
      call('odd__huge', { intent: 'get it', confidence: 0.9 }),
      say('Too big.'),
    );
    fixture = await openHost(model);
    const { host } = fixture;
    await putServer(host, 'odd', { ...stdio(ODD_SERVER), autonomy: 'auto' });
    const before = await waitForServer(host, 'odd', (server) => server.state === 'running');
    await host.invoke('settings.set', { trustLevel: 'autonomous' });

    const events: RunEvent[] = [];
    const card = watchServer(host, 'odd');
    const run = await host.runToEnd({ prompt: 'Get the huge thing' }, (event) => events.push(event));
    expect(run.status).toBe('completed');
    expect(toolResults(events).find((event) => event.tool === 'odd__huge')?.error).toBe(
      'The MCP server “odd” answered huge with more than 10 MB, more than Deputy reads, so the answer was dropped and the server is being restarted. The call was made; ask for less (a smaller range, a page) if you try again.',
    );
    expect(JSON.stringify(model.requests[1]?.messages.at(-1))).toContain('mcp_answer_too_large');
    await waitForServer(host, 'odd', (server) => server.state === 'running' && server.pid !== before.pid);
    await card.stop();
    // While it restarts, its card says why, and not that it crashed.
    expect(
      new Set(card.seen.filter((view) => view.state === 'restarting').map((view) => view.error)),
    ).toEqual(
      new Set([
        'The MCP server “odd” sent a message of more than 10 MB, more than Deputy reads, so its connection was closed and the server is being restarted.',
      ]),
    );
  });

  it('stops the server itself, not only the program that started it (npx, a shell), on restart and removal', async () => {
    folder = mkdtempSync(join(tmpdir(), 'deputy-mcp-tree-'));
    fixture = await openHost(new ScriptedModel());
    const { host } = fixture;
    const pidFile = join(folder, 'odd.pid');
    // The shell stays the server's parent, as `npm exec` does for `npx`.
    const config = {
      transport: 'stdio',
      command: 'sh',
      args: ['-c', `"${process.execPath}" "${ODD_SERVER}"; true`],
      env: { ODD_PID_FILE: pidFile },
    };
    const serverPid = async (): Promise<number> => {
      await waitForServer(host, 'tree', (server) => server.state === 'running');
      return Number(readFileSync(pidFile, 'utf8'));
    };
    const isGone = (pid: number) => async () => !isRunning(pid);
    await putServer(host, 'tree', config);
    const first = await serverPid();
    await host.invoke('mcp.restart', { name: 'tree' });
    await expect.poll(isGone(first), { timeout: 8_000 }).toBe(true);
    const second = await serverPid();
    expect(second).not.toBe(first);
    await host.invoke('mcp.delete', { name: 'tree' });
    await expect.poll(isGone(second), { timeout: 8_000 }).toBe(true);
  });

  it('leaves out a malformed tool listing, not the whole server, and says which in the log', async () => {
    const model = new ScriptedModel(call('raw__fine', {}), say('Fine.'));
    fixture = await openHost(model);
    const { host } = fixture;
    await putServer(host, 'raw', stdio(MALFORMED_TOOLS_SERVER));
    const view = await waitForServer(host, 'raw', (server) => server.state === 'running', 10_000);
    expect(view.tools.map((tool) => tool.name)).toEqual(['raw__fine']);
    const { lines } = await host.invoke('mcp.log', { name: 'raw' });
    const log = lines.join('\n');
    expect(log).toMatch(/tool “null-schema” left out: its listing is malformed \(inputSchema: /);
    expect(log).toMatch(
      /tool “bad-properties” left out: its listing is malformed \(inputSchema\.properties: /,
    );
    expect(log).toMatch(/tool #3 \(no name\) left out: its listing is malformed \(name: /);
    expect((await host.runToEnd({ prompt: 'Call fine' })).status).toBe('completed');
    expect(JSON.stringify(model.requests[1]?.messages.at(-1))).toContain('fine is fine');
  });

  it('leaves out a tool whose listing nests thousands of levels deep, and drops such an answer in words', async () => {
    const model = new ScriptedModel(call('raw__deep-answer', {}), say('Noted.'));
    fixture = await openHost(model);
    const { host } = fixture;
    await putServer(host, 'raw', { ...stdio(MALFORMED_TOOLS_SERVER), env: { DEEP_NESTING: '5000' } });
    // Before, the deep listing ran the check out of stack and the whole server could not start.
    const view = await waitForServer(host, 'raw', (server) => server.state === 'running', 10_000);
    expect(view.tools.map((tool) => tool.name)).toEqual(['raw__fine', 'raw__deep-answer']);
    expect(view.leftOut).toContain(
      'tool “deep-schema” left out: its listing is nested more than 64 levels deep',
    );
    const events: RunEvent[] = [];
    const done = await host.runToEnd({ prompt: 'Call deep-answer' }, (event) => events.push(event));
    expect(done.status).toBe('completed');
    expect(toolResults(events).map((event) => [event.state, event.error])).toEqual([
      [
        'failed',
        'The MCP server “raw” answered deep-answer with content nested more than 64 levels deep, which Deputy does not read, so the answer was dropped. The call was made.',
      ],
    ]);
    expect(JSON.stringify(model.requests[1]?.messages.at(-1))).toContain('mcp_answer_too_deep');
  });

  it('says in the log which tools it left out past the 500 a server may offer, and which for a name too long', async () => {
    fixture = await openHost(new ScriptedModel());
    const { host } = fixture;
    await putServer(host, 'raw', { ...stdio(MALFORMED_TOOLS_SERVER), env: { EXTRA_TOOLS: '502' } });
    const view = await waitForServer(host, 'raw', (server) => server.state === 'running', 10_000);
    // fine, the long name and many-2 … many-499 are the first 500; the long name does not fit once prefixed.
    expect(view.tools).toHaveLength(499);
    expect(view.tools.map((tool) => tool.name)).not.toContain('raw__many-500');
    const { lines } = await host.invoke('mcp.log', { name: 'raw' });
    const log = lines.join('\n');
    expect(log).toContain(
      '3 tool(s) left out: a server may offer at most 500, so only its first 500 are offered (left out: “many-500”, “many-501”, “many-502”)',
    );
    expect(log).toContain(
      `tool “a-tool-whose-name-is-long-${'x'.repeat(40)}” left out: “raw__a-tool-whose-name-is-long-${'x'.repeat(40)}” is longer than the 64 characters a tool's name may have`,
    );
    // Settings shows the same on the server's card: the malformed three, the three past 500, the long name.
    expect(view.leftOut).toHaveLength(5);
    expect(view.leftOut?.slice(3)).toEqual([
      '3 tool(s) left out: a server may offer at most 500, so only its first 500 are offered (left out: “many-500”, “many-501”, “many-502”)',
      `tool “a-tool-whose-name-is-long-${'x'.repeat(40)}” left out: “raw__a-tool-whose-name-is-long-${'x'.repeat(40)}” is longer than the 64 characters a tool's name may have (a shorter server name may make it fit)`,
    ]);
  });

  it('refreshes the tools when the server says its list changed', async () => {
    const model = new ScriptedModel(call('odd__add-tool', {}), say('Added.'));
    fixture = await openHost(model);
    const { host } = fixture;
    await putServer(host, 'odd', stdio(ODD_SERVER));
    const before = await waitForServer(host, 'odd', (server) => server.state === 'running');
    expect(before.tools.map((tool) => tool.name)).not.toContain('odd__extra');
    expect((await host.runToEnd({ prompt: 'Add the tool' })).status).toBe('completed');
    const after = await waitForServer(host, 'odd', (server) =>
      server.tools.some((tool) => tool.name === 'odd__extra'),
    );
    expect(after.tools.length).toBe(before.tools.length + 1);
    expect(host.toolCatalog().map((tool) => tool.name)).toContain('odd__extra');
  });

  it('retries a server that cannot start with growing delays, then stops trying and says why', async () => {
    fixture = await openHost(new ScriptedModel());
    const { host } = fixture;
    await putServer(host, 'missing', { transport: 'stdio', command: '/nonexistent/mcp-server' });
    const view = await waitForServer(host, 'missing', (server) => server.state === 'restarting');
    expect(view.error).toMatch(/could not start/);
    const failed = await waitForServer(host, 'missing', (server) => server.state === 'failed');
    expect(failed.error).toBe(view.error);
    const { lines } = await host.invoke('mcp.log', { name: 'missing' });
    expect(lines.filter((line) => /\[deputy\] (restarting|not restarting)/.test(line))).toEqual([
      expect.stringMatching(/restarting in 1 s$/),
      expect.stringMatching(/restarting in 2 s$/),
      expect.stringMatching(/not restarting: it failed to start 3 times in a row$/),
    ]);
  });

  it('caps a large answer for the model and keeps it whole in the audit trail', async () => {
    const model = new ScriptedModel(call('odd__big', {}), say('Long.'));
    fixture = await openHost(model);
    const { host } = fixture;
    await putServer(host, 'odd', stdio(ODD_SERVER));
    await waitForServer(host, 'odd', (server) => server.state === 'running');
    expect((await host.runToEnd({ prompt: 'Read the big one' })).status).toBe('completed');
    const seen = JSON.stringify(model.requests[1]?.messages.at(-1));
    expect(seen).toContain('"truncated":true');
    expect(seen).not.toContain('THE END');
    const kept = storeOf(host)
      .db.prepare<[], { detail_json: string }>(
        "SELECT detail_json FROM audit WHERE event = 'mcp_full_result'",
      )
      .all();
    expect(kept).toHaveLength(1);
    expect(kept[0]?.detail_json).toContain('THE END');
  });

  it('starts a first_use server only when one of its tools is called, offering the tools it listed before', async () => {
    folder = mkdtempSync(join(tmpdir(), 'deputy-mcp-fs-'));
    writeFileSync(join(folder, 'a.txt'), 'alpha');
    const model = new ScriptedModel(
      call('fs__read_text_file', { path: join(folder, 'a.txt') }),
      say('Alpha.'),
    );
    fixture = await openHost(model);
    await putServer(fixture.host, 'fs', { ...stdio(FILESYSTEM_SERVER, [folder]), start: 'first_use' });
    await waitForServer(fixture.host, 'fs', (server) => server.state === 'running');
    await fixture.stop();

    fixture = await openHost(model, { dataDir: fixture.dataDir });
    const { host } = fixture;
    const idle = await waitForServer(host, 'fs', () => true);
    expect(idle).toMatchObject({ state: 'stopped', pid: null });
    expect(idle.tools.map((tool) => tool.name)).toContain('fs__read_text_file');
    expect((await host.runToEnd({ prompt: 'Read a.txt' })).status).toBe('completed');
    expect(JSON.stringify(model.requests[0]?.tools.map((tool) => tool.name))).toContain('fs__read_text_file');
    expect(JSON.stringify(model.requests[1]?.messages.at(-1))).toContain('alpha');
    expect((await waitForServer(host, 'fs', () => true)).state).toBe('running');
  });

  it('answers a call whose first_use server cannot start with why, said once', async () => {
    folder = mkdtempSync(join(tmpdir(), 'deputy-mcp-fs-'));
    // The server through a script of the person's, which is gone by the next start.
    const script = join(folder, 'files-server.mjs');
    writeFileSync(script, `await import(${JSON.stringify(pathToFileURL(FILESYSTEM_SERVER).href)});\n`);
    const model = new ScriptedModel(call('fs__list_allowed_directories', {}), say('It did not start.'));
    fixture = await openHost(model);
    await putServer(fixture.host, 'fs', { ...stdio(script, [folder]), start: 'first_use' });
    await waitForServer(fixture.host, 'fs', (server) => server.state === 'running');
    await fixture.stop();
    rmSync(script);

    fixture = await openHost(model, { dataDir: fixture.dataDir });
    const events: RunEvent[] = [];
    await fixture.host.runToEnd({ prompt: 'Which folders may you read?' }, (event) => events.push(event));
    const error = toolResults(events).find((event) => event.tool === 'fs__list_allowed_directories')?.error;
    expect(error).toMatch(/^The MCP server “fs” could not start\. It stopped before it answered, saying: .+/);
    expect(error).not.toContain('is not running');
    expect(error).not.toMatch(/\.\.$/);
  });

  it('offers a server’s last known tools at start-up, before it has connected, so a resumed run finds them', async () => {
    folder = mkdtempSync(join(tmpdir(), 'deputy-mcp-fs-'));
    fixture = await openHost(new ScriptedModel());
    await putServer(fixture.host, 'fs', stdio(FILESYSTEM_SERVER, [folder]));
    await waitForServer(fixture.host, 'fs', (server) => server.state === 'running');
    await fixture.stop();

    fixture = await openHost(new ScriptedModel(), { dataDir: fixture.dataDir });
    // Right after the host is created (the server is still starting), its tools are already there.
    expect(fixture.host.toolCatalog().map((tool) => tool.name)).toContain('fs__read_text_file');
    expect((await waitForServer(fixture.host, 'fs', (server) => server.state === 'running')).state).toBe(
      'running',
    );
  });
});

describe('an MCP answer over 10 MB while other calls wait on the same server', () => {
  it('is not blamed on a call it may not have answered: each waiting call may or may not have happened', async () => {
    const connection = new McpConnection({
      name: 'odd',
      config: McpServerConfig.parse(stdio(ODD_SERVER)),
      secrets: () => ({ env: {}, headers: {} }),
      log: new BoundedLog(500, () => new Date()),
      onTools: () => {},
      onChange: () => {},
    });
    try {
      await connection.start();
      const stopped = new AbortController();
      const failure = (tool: string) =>
        connection.call(tool, {}, stopped.signal).then(
          () => null,
          (error: unknown) => error,
        );
      const [hang, huge] = await Promise.all([failure('hang'), failure('huge')]);
      for (const [tool, error] of [
        ['hang', hang],
        ['huge', huge],
      ] as const) {
        expect(error).toBeInstanceOf(ToolError);
        expect(error).toMatchObject({ code: 'mcp_server_died' });
        expect((error as ToolError).message).toContain(`${tool} may or may not have happened`);
      }
    } finally {
      await connection.stop('closing');
    }
  });
});
