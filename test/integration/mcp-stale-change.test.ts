import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { McpServerView } from '../../shared/contract';
import { jsonOf, serveApi, type ApiServer } from '../support/api-server';
import { openHost, type HostFixture } from '../support/host-fixture';
import { ScriptedModel } from '../support/scripted-model';

let fixture: HostFixture;
let served: ApiServer;
let json: ReturnType<typeof jsonOf>;

beforeAll(async () => {
  fixture = await openHost(new ScriptedModel());
  served = await serveApi(fixture, 'stale-change-token');
  json = jsonOf(served.api);
});
afterAll(async () => {
  await served.server.close();
  await fixture.close();
});

type Answer = { server: McpServerView } | { ok: false; error: { code: string; message: string } };

/** Puts `name` with `config` (turned off: nothing starts), on the settings of `revision` when given. */
const put = (name: string, config: Record<string, unknown>, revision?: string) =>
  json<Answer>(`/api/mcp/servers/${name}`, {
    method: 'PUT',
    body: JSON.stringify({ config: { enabled: false, ...config }, ...(revision && { revision }) }),
  });

async function shown(name: string): Promise<McpServerView | undefined> {
  const { body } = await json<{ servers: McpServerView[] }>('/api/mcp/servers');
  return body.servers.find((server) => server.name === name);
}

const ADDRESS = { transport: 'http', url: 'http://127.0.0.1:9/mcp' };

describe('a change made on a copy of a server read before another change', () => {
  it('is refused with a 409 that says so, and the other change stays; made on the current copy, it is saved', async () => {
    const card = (await put('remote', ADDRESS)).body as { server: McpServerView };
    // Meanwhile, through the API (or another window): its tools that act now run on their own.
    expect((await put('remote', { ...ADDRESS, autonomy: 'auto' })).status).toBe(200);

    // The card's copy, with a new address: the autonomy it does not know of would be written over.
    const stale = await put(
      'remote',
      { ...card.server.config, url: 'http://127.0.0.1:10/mcp' },
      card.server.revision,
    );
    expect(stale).toEqual({
      status: 409,
      body: {
        ok: false,
        error: {
          code: 'changed_since',
          message:
            'The MCP server “remote” was changed elsewhere (in another window or through the API) after these settings of it were read, so nothing was saved.',
        },
      },
    });
    const current = await shown('remote');
    expect(current?.config).toMatchObject({ autonomy: 'auto', url: ADDRESS.url });

    // Read again, the same change is saved, and the autonomy with it.
    const fresh = await put(
      'remote',
      { ...current?.config, url: 'http://127.0.0.1:10/mcp' },
      current?.revision,
    );
    expect(fresh.status).toBe(200);
    expect((await shown('remote'))?.config).toMatchObject({
      autonomy: 'auto',
      url: 'http://127.0.0.1:10/mcp',
    });
    expect((await shown('remote'))?.revision).not.toBe(current?.revision);
  });

  it('does not bring back a server removed meanwhile', async () => {
    const card = (await put('gone', ADDRESS)).body as { server: McpServerView };
    expect((await json(`/api/mcp/servers/gone`, { method: 'DELETE' })).status).toBe(200);
    const stale = await put('gone', card.server.config, card.server.revision);
    expect(stale.status).toBe(409);
    expect(JSON.stringify(stale.body)).toContain('was removed elsewhere');
    expect(await shown('gone')).toBeUndefined();
  });

  it('refuses a revision that is not one it hands out, as it does any input that does not parse', async () => {
    for (const revision of ['latest', 'ABCDEF0123456789', '0'.repeat(17), 42]) {
      const response = await json<Answer>('/api/mcp/servers/odd', {
        method: 'PUT',
        body: JSON.stringify({ config: { ...ADDRESS, enabled: false }, revision }),
      });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    }
    expect(await shown('odd')).toBeUndefined();
  });
});

describe('a new server under a name already taken', () => {
  it('is refused with a 409 that says so, and the server of that name stays as it was', async () => {
    expect((await put('taken', { ...ADDRESS, autonomy: 'auto' })).status).toBe(200);
    const before = await shown('taken');
    const added = await json<Answer>('/api/mcp/servers/taken', {
      method: 'PUT',
      body: JSON.stringify({ config: { transport: 'stdio', command: 'node', enabled: false }, isNew: true }),
    });
    expect(added).toEqual({
      status: 409,
      body: {
        ok: false,
        error: {
          code: 'conflict',
          message:
            'There is already an MCP server named “taken”, so nothing was saved. Give this one another name, or change that one on its card.',
        },
      },
    });
    expect(await shown('taken')).toEqual(before);
    // A name not taken is added as before; `isNew` is `true` or absent, nothing else.
    const fresh = await json<Answer>('/api/mcp/servers/untaken', {
      method: 'PUT',
      body: JSON.stringify({ config: { ...ADDRESS, enabled: false }, isNew: true }),
    });
    expect(fresh.status).toBe(200);
    const odd = await json<Answer>('/api/mcp/servers/odd-new', {
      method: 'PUT',
      body: JSON.stringify({ config: { ...ADDRESS, enabled: false }, isNew: false }),
    });
    expect(odd.status).toBe(400);
  });
});
