import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BoundedLog } from '../../../electron/mcp/bounded-log';
import { McpConnection, type ConnectionDeps } from '../../../electron/mcp/mcp-connection';
import { MCP_START_ATTEMPTS, McpServerConfig, type McpServerState } from '../../../shared/contract';
import { answerMcp, listenLocally, ODD_SERVER, stdio, textTool } from '../../support/mcp-kit';

/** Restarts come after 10 ms, not after 1 s, 2 s…: the count of attempts is what is tested, not the delays. */
const QUICK = { firstMs: 10, maxMs: 10, afterServerErrorMs: 10 };

/** A connection to `config`, with every state it takes, in order, and its log. */
function connect(
  name: string,
  config: Record<string, unknown>,
  onState: (state: McpServerState) => void = () => {},
  options: Pick<ConnectionDeps, 'backoff' | 'stayedUpMs'> = {},
) {
  const log = new BoundedLog();
  const states: McpServerState[] = [];
  const connection: McpConnection = new McpConnection({
    name,
    config: McpServerConfig.parse(config),
    secrets: () => ({ env: {}, headers: {} }),
    log,
    onTools: () => {},
    onChange: () => {
      if (states.at(-1) === connection.state) return;
      states.push(connection.state);
      onState(connection.state);
    },
    backoff: QUICK,
    ...options,
  });
  const starts = () => log.snapshot().filter((line) => line.includes('[deputy] starting (')).length;
  /** The delays before each restart, as its log says them ("restarting in 0.2 s"). */
  const delays = () => log.snapshot().flatMap((line) => /restarting in (.+)$/.exec(line)?.[1] ?? []);
  return { connection, states, starts, delays };
}

async function until(check: () => boolean, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('waited too long');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('an MCP server that cannot start', () => {
  const opened: McpConnection[] = [];
  let folder = '';

  afterEach(async () => {
    await Promise.all(opened.splice(0).map((connection) => connection.stop('closing')));
    if (folder) rmSync(folder, { recursive: true, force: true });
    folder = '';
  });

  it(`is tried ${MCP_START_ATTEMPTS} times, then left failed with its reason, and no longer tried`, async () => {
    const { connection, states, starts } = connect('gone', {
      transport: 'stdio',
      command: '/nonexistent/deputy-mcp-server',
    });
    opened.push(connection);
    await connection.start();
    await until(() => connection.state === 'failed');
    expect(states).toEqual(['starting', 'restarting', 'starting', 'restarting', 'starting', 'failed']);
    expect(connection.error).toBe(
      'The MCP server “gone” could not start. Deputy could not find the program “/nonexistent/deputy-mcp-server”. Check that it is installed, or give its full path.',
    );

    // Many times the restart delay later, nothing has started it again: not the timer, not a call, not start().
    await pause(200);
    const call = connection.call('anything', {}, new AbortController().signal);
    await expect(call).rejects.toMatchObject({
      code: 'mcp_unavailable',
      message: `${connection.error} Deputy stopped trying after ${MCP_START_ATTEMPTS} failed starts; the person can start it again in Settings → Extensions.`,
    });
    await connection.start();
    expect(starts()).toBe(MCP_START_ATTEMPTS);
    expect(connection.state).toBe('failed');

    // Restart (the card's Try again) counts afresh: it is tried as many times again.
    await connection.restart(1_000);
    await until(() => connection.state === 'failed');
    expect(starts()).toBe(2 * MCP_START_ATTEMPTS);
  });

  it('counts an address that answered wrongly, and keeps trying one it could not reach', async () => {
    const refusing = createServer((_request, response) => response.writeHead(401).end('no'));
    await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve));
    const port = (refusing.address() as AddressInfo).port;
    try {
      const locked = connect('locked', { transport: 'http', url: `http://127.0.0.1:${port}/mcp` });
      opened.push(locked.connection);
      await locked.connection.start();
      await until(() => locked.connection.state === 'failed');
      expect(locked.connection.error).toMatch(/refused Deputy \(HTTP 401\)/);
    } finally {
      refusing.close();
    }

    // Nothing listens there now (a server not started yet, the network down): tried on, well past the count.
    const away = connect('away', { transport: 'http', url: `http://127.0.0.1:${port}/mcp` });
    opened.push(away.connection);
    await away.connection.start();
    await until(() => away.starts() > 2 * MCP_START_ATTEMPTS && away.connection.state === 'restarting');
    expect(away.states).not.toContain('failed');
    expect(away.connection.error).toMatch(/Nothing is listening at/);
  });

  it('counts an address that answered 500, yet waits longer after one: a server that boots meanwhile runs, one that always answers it is left failed', async () => {
    // Its first answers are 500s, as some hosts answer while a server boots, until Deputy has waited twice to try
    // again (a time would be passed sooner or later on a loaded machine); then it works.
    let waitsSoFar = (): number => 0;
    const booting = createServer((request, response) => {
      if (waitsSoFar() < 2) response.writeHead(500).end('starting up');
      else answerMcp(request, response, 'booting', textTool('ping', 'pong'));
    });
    const broken = createServer((_request, response) => response.writeHead(500).end('broken'));
    const [up, down] = await Promise.all([listenLocally(booting), listenLocally(broken)]);
    const backoff = { firstMs: 10, maxMs: 10, afterServerErrorMs: 200 };
    try {
      const slow = connect('booting', { transport: 'http', url: up.url }, undefined, { backoff });
      waitsSoFar = () => slow.delays().length;
      const dead = connect('broken', { transport: 'http', url: down.url }, undefined, { backoff });
      opened.push(slow.connection, dead.connection);
      await Promise.all([slow.connection.start(), dead.connection.start()]);

      await until(() => slow.connection.state === 'running');
      expect(slow.states).not.toContain('failed');
      expect(slow.delays()).toEqual(['0.2 s', '0.4 s']);

      await until(() => dead.connection.state === 'failed');
      expect(dead.starts()).toBe(MCP_START_ATTEMPTS);
      expect(dead.delays()).toEqual(['0.2 s', '0.4 s']);
      expect(dead.connection.error).toBe(
        `The MCP server “broken” could not start. The server at ${new URL(down.url).origin} answered with an error (HTTP 500).`,
      );
    } finally {
      for (const server of [booting, broken]) {
        server.closeAllConnections();
        server.close();
      }
    }
  });

  it('counts only failed starts in a row: one that works starts the count again, and a server that dies is restarted', async () => {
    folder = mkdtempSync(join(tmpdir(), 'deputy-mcp-failed-'));
    // The server's working folder, missing at first: the program is found, yet it cannot start.
    const place = join(folder, 'place');
    let failedStarts = 0;
    const onState = (state: McpServerState) => {
      // The folder is back just before the last start allowed: that one works.
      if (state === 'restarting' && ++failedStarts === MCP_START_ATTEMPTS - 1) mkdirSync(place);
    };
    const stayedUpMs = 100;
    const backoff = { firstMs: 100, maxMs: 60_000, afterServerErrorMs: 100 };
    const { connection, states, delays } = connect('odd', stdio(ODD_SERVER, [], { cwd: place }), onState, {
      backoff,
      stayedUpMs,
    });
    opened.push(connection);
    await connection.start();
    await until(() => connection.state === 'running');
    expect(states.filter((state) => state === 'restarting')).toHaveLength(MCP_START_ATTEMPTS - 1);

    // It stays up long enough each time, then dies, more times than it may fail to start: each time it is restarted
    // after the first delay again (0.1 s, not 0.4 s, 0.8 s…), and runs again.
    for (let death = 0; death < MCP_START_ATTEMPTS + 1; death += 1) {
      await pause(3 * stayedUpMs);
      const { pid } = connection;
      process.kill(pid ?? 0, 'SIGKILL');
      await until(() => connection.state === 'running' && connection.pid !== pid);
    }
    expect(delays()).toEqual([
      '0.1 s',
      '0.2 s',
      ...Array.from({ length: MCP_START_ATTEMPTS + 1 }, () => '0.1 s'),
    ]);

    // Then it dies and cannot start again (its folder went): it is restarted, and fails, as many times as allowed.
    states.length = 0;
    rmSync(place, { recursive: true });
    await pause(3 * stayedUpMs);
    process.kill(connection.pid ?? 0, 'SIGKILL');
    await until(() => connection.state === 'failed');
    expect(states).toEqual([
      'restarting',
      ...Array.from({ length: MCP_START_ATTEMPTS - 1 }, () => ['starting', 'restarting']).flat(),
      'starting',
      'failed',
    ]);
    expect(connection.error).toBe(
      `The MCP server “odd” could not start. Its working folder ${place} does not exist.`,
    );
  });

  it('counts a server that stops right after it started as a failed start, waiting longer before each restart', async () => {
    // It answers initialize and tools/list, says why on stderr and exits with 3, every time.
    const config = stdio(ODD_SERVER, [], { env: { ODD_EXIT_AFTER_LIST: '3' } });
    const backoff = { firstMs: 100, maxMs: 60_000, afterServerErrorMs: 100 };
    const { connection, states, starts, delays } = connect('brief', config, undefined, { backoff });
    opened.push(connection);
    await connection.start();
    // Counted as starts that worked, it was started again every 0.1 s, for ever.
    await until(() => connection.state === 'failed' || starts() > MCP_START_ATTEMPTS);
    expect(states).toEqual([
      ...Array.from({ length: MCP_START_ATTEMPTS - 1 }, () => ['starting', 'running', 'restarting']).flat(),
      'starting',
      'running',
      'failed',
    ]);
    expect(delays()).toEqual(['0.1 s', '0.2 s']);
    expect(connection.error).toBe(
      'The MCP server “brief” stopped right after it started, saying: Error: the database is locked',
    );
    // A call meanwhile is told why in sentences: the server's words end one before Deputy's next begins.
    await expect(connection.call('anything', {}, new AbortController().signal)).rejects.toMatchObject({
      code: 'mcp_unavailable',
      message: `The MCP server “brief” stopped right after it started, saying: Error: the database is locked. Deputy stopped trying after ${MCP_START_ATTEMPTS} failed starts; the person can start it again in Settings → Extensions.`,
    });
    await pause(500);
    expect(starts()).toBe(MCP_START_ATTEMPTS);
    expect(connection.state).toBe('failed');
  });
  it('counts a server that dies while Deputy asks for its tools once, and waits once before each start', async () => {
    const config = stdio(ODD_SERVER, [], { env: { ODD_EXIT_ON_LIST: '4' } });
    const backoff = { firstMs: 100, maxMs: 60_000, afterServerErrorMs: 100 };
    const { connection, states, starts, delays } = connect('dying', config, undefined, { backoff });
    opened.push(connection);
    await connection.start();
    await until(() => connection.state === 'failed' || starts() > MCP_START_ATTEMPTS);
    expect(states).toEqual([
      ...Array.from({ length: MCP_START_ATTEMPTS - 1 }, () => ['starting', 'restarting']).flat(),
      'starting',
      'failed',
    ]);
    // One wait a failure, growing once each time: the closed connection and the failed start are the one event.
    expect(delays()).toEqual(['0.1 s', '0.2 s']);
    expect(connection.error).toBe(
      'The MCP server “dying” could not start. It stopped before it answered, saying: Error: no tools could be loaded',
    );
    await pause(500);
    expect(starts()).toBe(MCP_START_ATTEMPTS);
  });
});
