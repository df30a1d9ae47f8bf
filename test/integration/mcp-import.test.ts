import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { McpServerConfig } from '../../shared/contract';
import { Vault } from '../../electron/vault/vault';
import { createKeyFileCipher } from '../../electron/vault/cipher';
import { Store } from '../../electron/store/store';
import { readAll, scanFor } from '../support/byte-scan';
import { openHost, type HostFixture } from '../support/host-fixture';
import { EVERYTHING_SERVER, waitForServer } from '../support/mcp-kit';
import { call, say, ScriptedModel } from '../support/scripted-model';

/** A secret of no known shape: only its name (…_TOKEN) says it is one. */
const SECRET = 'imported-only-in-the-vault-7f3a9c2e5b1d';

describe('importing a Claude Desktop config', () => {
  let fixture: HostFixture | null = null;
  let folder = '';

  afterEach(async () => {
    await fixture?.close();
    fixture = null;
    rmSync(folder, { recursive: true, force: true });
  });

  it('adds its servers with their secret env values in the vault, masked, and nowhere else on disk', async () => {
    folder = mkdtempSync(join(tmpdir(), 'deputy-mcp-import-'));
    const configPath = join(folder, 'claude_desktop_config.json');
    writeFileSync(
      configPath,
      JSON.stringify({
        mcpServers: {
          everything: {
            command: process.execPath,
            args: [EVERYTHING_SERVER, 'stdio'],
            env: { GITHUB_PERSONAL_ACCESS_TOKEN: SECRET, LOG_LEVEL: 'debug' },
          },
          'bad name!': { url: 'not a url' },
        },
      }),
    );
    const model = new ScriptedModel(call('everything__get-env', {}), say('Read the environment.'));
    fixture = await openHost(model);
    const { host, dataDir } = fixture;

    const imported = await host.invoke('mcp.import', { path: configPath });
    expect(imported.imported).toEqual(['everything']);
    expect(imported.secretsStored).toBe(1);
    expect(imported.skipped.map((entry) => entry.name)).toEqual(['bad name!']);

    const view = await waitForServer(host, 'everything', (server) => server.state === 'running');
    expect(view.config.env).toEqual({ LOG_LEVEL: 'debug' });
    expect(view.config.secretEnv).toEqual(['GITHUB_PERSONAL_ACCESS_TOKEN']);
    expect(view.maskedSecrets).toEqual([
      { kind: 'env', name: 'GITHUB_PERSONAL_ACCESS_TOKEN', masked: '••••••••' },
    ]);
    expect(JSON.stringify(await host.invoke('mcp.list', {}))).not.toContain(SECRET);

    // The server really got it (get-env answers with its environment); the model and the records see it redacted.
    const run = await host.runToEnd({ prompt: 'What is in the environment?' });
    expect(run.status).toBe('completed');
    const seen = JSON.stringify(model.requests[1]?.messages);
    expect(seen).toContain('GITHUB_PERSONAL_ACCESS_TOKEN');
    expect(seen).not.toContain(SECRET);
    const { lines } = await host.invoke('mcp.log', { name: 'everything' });
    expect(lines.join('\n')).not.toContain(SECRET);

    await fixture.stop();
    const scan = scanFor([SECRET], readAll(dataDir));
    expect(scan.hits).toEqual([]);
    expect(scan.files).toContain('deputy.db');
    // …and the vault, opened with its key, holds it.
    const store = Store.open(join(dataDir, 'deputy.db'));
    const vault = new Vault(store.db, createKeyFileCipher(join(dataDir, 'vault.key')));
    expect(vault.get('mcp.everything')).toContain(SECRET);
    store.close();
  });
  it('starts the servers of a file side by side, not each after the last, and reports each in the file’s order', async () => {
    // Programs that run but never answer MCP's first message: each keeps Save waiting its full 5 s.
    const silent = { command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'] };
    const url = 'postgres://deputy:s3cret-Passw0rd@localhost:5432/notes';
    fixture = await openHost(new ScriptedModel());
    const { host } = fixture;
    const startedAt = Date.now();
    const imported = await host.invoke('mcp.import', {
      text: JSON.stringify({
        mcpServers: {
          one: silent,
          two: silent,
          notes: { command: 'npx', args: ['server-postgres', url] },
          three: silent,
          four: silent,
        },
      }),
    });
    // One after another they would take 20 s.
    expect(Date.now() - startedAt).toBeLessThan(9_000);
    expect(imported.imported).toEqual(['one', 'two', 'three', 'four']);
    expect(imported.skipped).toEqual([
      { name: 'notes', reason: expect.stringContaining('arguments hold what looks like a password') },
    ]);
    const { servers } = await host.invoke('mcp.list', {});
    expect(servers.map((server) => [server.name, server.state])).toEqual([
      ['four', 'starting'],
      ['one', 'starting'],
      ['three', 'starting'],
      ['two', 'starting'],
    ]);
  });

  it('refuses a server whose plain settings hold a password, rather than save it without and break it', async () => {
    folder = mkdtempSync(join(tmpdir(), 'deputy-mcp-import-'));
    const url = 'postgres://deputy:s3cret-Passw0rd@localhost:5432/notes';
    fixture = await openHost(new ScriptedModel());
    const { host } = fixture;

    const imported = await host.invoke('mcp.import', {
      text: JSON.stringify({ mcpServers: { notes: { command: 'npx', args: ['server-postgres', url] } } }),
    });
    expect(imported.imported).toEqual([]);
    expect(imported.skipped).toEqual([
      { name: 'notes', reason: expect.stringContaining('arguments hold what looks like a password') },
    ]);

    const put = host.invoke('mcp.put', {
      name: 'notes',
      config: McpServerConfig.parse({ transport: 'stdio', command: 'npx', args: ['server-postgres', url] }),
    });
    await expect(put).rejects.toMatchObject({ code: 'invalid_input' });
    expect((await host.invoke('mcp.list', {})).servers).toEqual([]);
  });

  it.each([
    ['header X-Api-Key', { headers: { 'X-Api-Key': 'abc123def456ghi' } }],
    ['environment value SERVICE_PASSWORD', { env: { SERVICE_PASSWORD: 'plainvalue123' } }],
    ['header Authorization', { headers: { Authorization: 'Basic dXNlcjpwYXNzd29yZA==' } }],
  ])('refuses a plain %s that settings would save without its value', async (field, plain) => {
    fixture = await openHost(new ScriptedModel());
    const { host } = fixture;
    const config = McpServerConfig.parse({
      transport: 'http',
      url: 'https://mcp.example.com/mcp',
      enabled: false,
      ...plain,
    });

    const put = host.invoke('mcp.put', { name: 'svc', config });
    await expect(put).rejects.toMatchObject({
      code: 'invalid_input',
      message: expect.stringContaining(`The server's ${field} holds what looks like a password or key`),
    });
    expect((await host.invoke('mcp.list', {})).servers).toEqual([]);
  });

  it('refuses a change that would re-save another server without a value, and names that server', async () => {
    const shared = 'shared-value-5b1d7f3a9c2e';
    const first = await openHost(new ScriptedModel());
    fixture = first;
    const plain = McpServerConfig.parse({
      transport: 'http',
      url: 'https://mcp.example.com/mcp',
      headers: { 'X-Label': shared },
      enabled: false,
    });
    await first.host.invoke('mcp.put', { name: 'labels', config: plain });

    // The same value given as another server's secret: from now on it is redacted wherever it is written.
    const put = first.host.invoke('mcp.put', {
      name: 'notes',
      config: McpServerConfig.parse({
        transport: 'http',
        url: 'https://notes.example.com/mcp',
        secretHeaders: ['X-Notes-Key'],
        enabled: false,
      }),
      secrets: { env: {}, headers: { 'X-Notes-Key': shared } },
    });
    await expect(put).rejects.toMatchObject({
      code: 'invalid_input',
      message: expect.stringContaining('“labels”'),
    });

    await first.stop();
    fixture = await openHost(new ScriptedModel(), { dataDir: first.dataDir });
    const { servers } = await fixture.host.invoke('mcp.list', {});
    expect(servers.map((server) => [server.name, server.config.headers])).toEqual([
      ['labels', { 'X-Label': shared }],
    ]);
  });
});
