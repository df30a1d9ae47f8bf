import { join } from 'node:path';
import { afterEach } from 'vitest';
import { startHttpServer, type RunningServer } from '../../electron/server/http-server';
import type { HostFixture } from './host-fixture';

export interface ApiServer {
  server: RunningServer;
  /** A request to the API with the bearer token and a JSON content type. */
  api: (path: string, init?: RequestInit) => Promise<Response>;
}

/** The headless HTTP API over a test's host, on a free loopback port, with no renderer to serve. */
export async function serveApi(fixture: HostFixture, token: string): Promise<ApiServer> {
  const server = await startHttpServer({
    host: fixture.host,
    token,
    port: 0,
    rendererDir: join(fixture.dataDir, 'no-renderer'),
    logError: () => {},
  });
  const api = (path: string, init: RequestInit = {}) =>
    fetch(`${server.url}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    });
  return { server, api };
}

/** A JSON request to the API: its status and its parsed body. */
export function jsonOf(api: ApiServer['api']) {
  return async <T>(path: string, init?: RequestInit): Promise<{ status: number; body: T }> => {
    const response = await api(path, init);
    return { status: response.status, body: (await response.json()) as T };
  };
}

/** The hosts and API servers a test file opens, closed after each test (the servers first). */
export function closedAfterEach(): { fixtures: HostFixture[]; servers: RunningServer[] } {
  const opened = { fixtures: [] as HostFixture[], servers: [] as RunningServer[] };
  afterEach(async () => {
    for (const server of opened.servers.splice(0)) await server.close();
    for (const fixture of opened.fixtures.splice(0)) await fixture.close();
  });
  return opened;
}
