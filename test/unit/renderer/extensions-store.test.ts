import { describe, expect, it } from 'vitest';
import { McpServerConfig, type McpServerView } from '../../../shared/contract';
import { createExtensionsStore } from '../../../renderer/src/features/extensions/extensions-store';
import { parseSecretLines } from '../../../renderer/src/features/extensions/secret-lines';
import { fakeClient } from './fixtures';

const server = (name: string, overrides: Partial<McpServerView> = {}): McpServerView => ({
  name,
  config: McpServerConfig.parse({ transport: 'stdio', command: 'npx' }),
  state: 'running',
  error: null,
  restarts: 0,
  pid: 42,
  tools: [],
  maskedSecrets: [],
  ...overrides,
});

describe('extensions store', () => {
  it('lists servers, saves one with its secrets, and keeps no secret in its state', async () => {
    const saved = server('files', {
      maskedSecrets: [{ kind: 'env', name: 'API_KEY', masked: '••••••••' }],
    });
    const fake = fakeClient({
      'mcp.list': async () => ({ servers: [server('other')] }),
      'mcp.put': async () => ({ server: saved }),
    });
    const store = createExtensionsStore(fake.client);
    await store.getState().load();
    const secrets = parseSecretLines('API_KEY=very-secret-value\n\nnot a line', 'env');
    expect(secrets).toEqual({ env: { API_KEY: 'very-secret-value' }, headers: {} });
    expect(await store.getState().save('files', saved.config, secrets)).toBe(true);
    expect(store.getState().servers?.map((item) => item.name)).toEqual(['files', 'other']);
    expect(JSON.stringify(store.getState())).not.toContain('very-secret-value');
  });

  it('sets a server to auto only when asked, and back to confirm as null', async () => {
    const fake = fakeClient({
      'mcp.put': async (input) => ({
        server: server(input.name, { config: McpServerConfig.parse(input.config) }),
      }),
    });
    const store = createExtensionsStore(fake.client);
    await store.getState().setAutonomy(server('files'), 'auto');
    await store.getState().setAutonomy(server('files'), null);
    const puts = fake.calls.filter((call) => call.channel === 'mcp.put');
    expect(puts.map((call) => (call.input as { config: { autonomy: unknown } }).config.autonomy)).toEqual([
      'auto',
      null,
    ]);
  });

  it("sets one tool on its own, and back to the server's setting by leaving it out", async () => {
    const base = server('files', {
      config: McpServerConfig.parse({ transport: 'stdio', command: 'npx', toolAutonomy: { read: 'auto' } }),
    });
    const fake = fakeClient({
      'mcp.put': async (input) => ({
        server: server(input.name, { config: McpServerConfig.parse(input.config) }),
      }),
    });
    const store = createExtensionsStore(fake.client);
    await store.getState().setToolAutonomy(base, 'write_file', 'notify');
    await store.getState().setToolAutonomy(base, 'read', null);
    const sent = fake.calls
      .filter((call) => call.channel === 'mcp.put')
      .map((call) => (call.input as { config: { toolAutonomy: unknown } }).config.toolAutonomy);
    expect(sent).toEqual([{ read: 'auto', write_file: 'notify' }, {}]);
  });

  it('says what an import did, and why a failure failed', async () => {
    const fake = fakeClient({
      'mcp.import': async () => ({
        imported: ['github'],
        secretsStored: 1,
        skipped: [{ name: 'bad', reason: 'no command' }],
      }),
      'mcp.list': async () => ({ servers: [server('github')] }),
      'mcp.restart': () => Promise.reject(new Error('The MCP server "github" is turned off.')),
    });
    const store = createExtensionsStore(fake.client);
    await store.getState().importConfig({ text: '{}' });
    expect(store.getState().outcome).toBe(
      'Imported 1 server; 1 secret value(s) went to the vault. Skipped: bad (no command).',
    );
    await store.getState().restart('github');
    expect(store.getState().error).toMatch(/turned off/);
  });
});
