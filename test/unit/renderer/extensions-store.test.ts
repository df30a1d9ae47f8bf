import { describe, expect, it } from 'vitest';
import { McpServerConfig, type McpServerView } from '../../../shared/contract';
import { createExtensionsStore } from '../../../renderer/src/features/extensions/extensions-store';
import {
  joinCommandLine,
  readAddServerForm,
  readEditedTarget,
  splitCommandLine,
  targetLine,
} from '../../../renderer/src/features/extensions/add-server-input';
import { parseSecretLines } from '../../../renderer/src/features/extensions/secret-lines';
import { ClientError } from '../../../renderer/src/api/client-error';
import { fakeClient } from './fixtures';

const server = (name: string, overrides: Partial<McpServerView> = {}): McpServerView => ({
  name,
  config: McpServerConfig.parse({ transport: 'stdio', command: 'npx' }),
  revision: '0123456789abcdef',
  state: 'running',
  error: null,
  restarts: 0,
  pid: 42,
  tools: [],
  maskedSecrets: [],
  ...overrides,
});

/** An mcp.put that answers (the server as saved) only once `finish` is called. */
function slowPut() {
  let finish = (): void => {};
  const handler = (input: { name: string; config: unknown }) =>
    new Promise<{ server: McpServerView }>((resolve) => {
      finish = () => resolve({ server: server(input.name, { config: McpServerConfig.parse(input.config) }) });
    });
  return { handler, finish: () => finish() };
}

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

  it('leaves its state as it is when a reading of the servers answers what it shows (the panel reads every 2 s)', async () => {
    let state: McpServerView['state'] = 'running';
    const fake = fakeClient({ 'mcp.list': async () => ({ servers: [server('files', { state })] }) });
    const store = createExtensionsStore(fake.client);
    await store.getState().load();
    const first = store.getState().servers;
    await store.getState().load();
    expect(store.getState().servers).toBe(first);
    state = 'stopped';
    await store.getState().load();
    expect(store.getState().servers?.[0]?.state).toBe('stopped');
  });

  it('says a saved server that is still starting is saved, and that its card will show how it ends', async () => {
    const fake = fakeClient({ 'mcp.put': async () => ({ server: server('slow', { state: 'starting' }) }) });
    const store = createExtensionsStore(fake.client);
    expect(await store.getState().save('slow', server('slow').config)).toBe(true);
    expect(store.getState().outcome).toBe(
      'Saved slow. It is still starting; its card shows when it runs, or why it does not.',
    );
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
      'mcp.restart': () => Promise.reject(new Error('The MCP server “github” is turned off.')),
    });
    const store = createExtensionsStore(fake.client);
    await store.getState().importConfig({ text: '{}' });
    expect(store.getState().outcome).toBe(
      'Imported 1 server; 1 secret went to the vault. Skipped: bad (no command).',
    );
    // Said beside its button on the card, not a second time at the foot of the panel.
    expect(await store.getState().restart('github')).toMatch(/turned off/);
    expect(store.getState().error).toBeNull();
  });

  it('counts what an import did in words, not "value(s)"', async () => {
    const fake = fakeClient({
      'mcp.import': async () => ({ imported: ['github', 'files'], secretsStored: 3, skipped: [] }),
      'mcp.list': async () => ({ servers: [server('github'), server('files')] }),
    });
    const store = createExtensionsStore(fake.client);
    await store.getState().importConfig({ text: '{}' });
    expect(store.getState().outcome).toBe('Imported 2 servers; 3 secrets went to the vault.');
  });

  it('turns a server off and on with its settings as they were, and says what off means', async () => {
    const fake = fakeClient({
      'mcp.put': async (input) => ({
        server: server(input.name, { config: McpServerConfig.parse(input.config) }),
      }),
    });
    const store = createExtensionsStore(fake.client);
    const files = server('files', {
      config: McpServerConfig.parse({ transport: 'stdio', command: 'npx', autonomy: 'notify' }),
    });
    expect(await store.getState().setEnabled(files, false)).toBeNull();
    expect(store.getState().outcome).toBe(
      'Turned files off: its tools are not offered until you turn it on.',
    );
    expect(store.getState().servers?.[0]?.config).toMatchObject({ enabled: false, autonomy: 'notify' });
    await store.getState().setEnabled(files, true);
    expect(store.getState().outcome).toBe('Turned files on.');
    const sent = fake.calls
      .filter((call) => call.channel === 'mcp.put')
      .map((call) => (call.input as { config: { enabled: unknown } }).config.enabled);
    expect(sent).toEqual([false, true]);
  });
  it('says to wait when a change is asked for while another is under way, and makes none', async () => {
    const put = slowPut();
    const fake = fakeClient({
      'mcp.list': async () => ({ servers: [server('files'), server('other')] }),
      'mcp.put': put.handler,
    });
    const store = createExtensionsStore(fake.client);
    await store.getState().load();
    const slow = store.getState().setEnabled(server('files'), false);
    // Handed to the card of the change asked for, not said at the foot of the panel.
    expect(await store.getState().setEnabled(server('other'), false)).toBe(
      'What you asked of “files” is not finished yet; try again once it is.',
    );
    expect(store.getState().error).toBeNull();
    expect(fake.calls.filter((call) => call.channel === 'mcp.put')).toHaveLength(1);
    put.finish();
    expect(await slow).toBeNull();
    expect(store.getState().error).toBeNull();
  });

  it('hands back why a log or a removal was refused for its card, and leaves a change under way to go on', async () => {
    const put = slowPut();
    const fake = fakeClient({
      'mcp.list': async () => ({ servers: [server('files'), server('other')] }),
      'mcp.put': put.handler,
      'mcp.log': async () =>
        Promise.reject(new ClientError('not_found', 'There is no MCP server named "other".')),
      'mcp.delete': async () =>
        Promise.reject(new ClientError('internal', 'The vault could not be written.')),
    });
    const store = createExtensionsStore(fake.client);
    await store.getState().load();
    const slow = store.getState().setEnabled(server('files'), false);
    expect(await store.getState().showLog('other')).toBe('There is no MCP server named "other".');
    // Only a reading: the change of "files" is still under way, and nothing is said at the foot of the panel.
    expect(store.getState()).toMatchObject({ busy: 'files', error: null, log: null });
    put.finish();
    expect(await slow).toBeNull();
    expect(await store.getState().remove('other')).toBe('The vault could not be written.');
    expect(store.getState()).toMatchObject({ busy: null, error: null });
    expect(store.getState().servers?.map((item) => item.name)).toEqual(['files', 'other']);
  });

  it('takes a server removed elsewhere meanwhile as removed: its card goes, and the panel says so', async () => {
    const fake = fakeClient({
      'mcp.list': async () => ({ servers: [server('files'), server('other')] }),
      'mcp.delete': async () =>
        Promise.reject(new ClientError('not_found', 'There is no MCP server named “other”.')),
    });
    const store = createExtensionsStore(fake.client);
    await store.getState().load();
    expect(await store.getState().remove('other')).toBeNull();
    expect(store.getState()).toMatchObject({
      busy: null,
      error: null,
      outcome: 'other was already removed.',
    });
    expect(store.getState().servers?.map((item) => item.name)).toEqual(['files']);
  });

  it('saves a server’s new command with the rest of its settings, or hands back why not for the edit form', async () => {
    const files = server('files', {
      config: McpServerConfig.parse({ transport: 'stdio', command: 'npxx', cwd: '/srv', secretEnv: ['KEY'] }),
      state: 'failed',
    });
    const fake = fakeClient({
      'mcp.put': async (input) =>
        input.config.command === 'refused'
          ? Promise.reject(new Error('The value of --token looks like a secret.'))
          : { server: server(input.name, { config: McpServerConfig.parse(input.config) }) },
    });
    const store = createExtensionsStore(fake.client);
    expect(await store.getState().changeTarget(files, { command: 'npx', args: ['-y', 'server'] })).toBeNull();
    expect(store.getState().outcome).toBe('Saved the new command of files.');
    expect(store.getState().servers?.[0]?.config).toMatchObject({
      command: 'npx',
      args: ['-y', 'server'],
      cwd: '/srv',
      secretEnv: ['KEY'],
    });
    // Said once, in the form beside its field, not a second time at the foot of the panel.
    expect(await store.getState().changeTarget(files, { command: 'refused' })).toBe(
      'The value of --token looks like a secret.',
    );
    expect(store.getState().error).toBeNull();
  });

  it('keeps what a change answered over a reading of the servers asked before it (the panel reads them every 2 s)', async () => {
    const running = server('files');
    const before = [running, server('other')];
    let answerList: (servers: McpServerView[]) => void = () => {};
    const fake = fakeClient({
      'mcp.list': () => new Promise((resolve) => (answerList = (servers) => resolve({ servers }))),
      'mcp.put': async (input) => ({
        server: server(input.name, { config: McpServerConfig.parse(input.config), state: 'disabled' }),
      }),
      'mcp.delete': async (input) => ({ deleted: input.name }),
    });
    const store = createExtensionsStore(fake.client);
    const first = store.getState().load();
    answerList(before);
    await first;
    // A reading asked for before Turn off, answered after it: the server was still running when it was read.
    const stale = store.getState().load();
    expect(await store.getState().setEnabled(running, false)).toBeNull();
    answerList(before);
    await stale;
    expect(store.getState().servers?.find((item) => item.name === 'files')?.config.enabled).toBe(false);
    // The same for Remove: the removed server does not come back.
    const staleAgain = store.getState().load();
    await store.getState().remove('other');
    answerList(before);
    await staleAgain;
    expect(store.getState().servers?.map((item) => item.name)).toEqual(['files']);
    // A reading asked for after the changes is taken as it is.
    const fresh = store.getState().load();
    answerList([running]);
    await fresh;
    expect(store.getState().servers).toEqual([running]);
  });
});

describe('the add form', () => {
  it('keeps a quoted argument with spaces whole, as a shell would, and a Windows path as typed', () => {
    expect(
      splitCommandLine(`npx -y @modelcontextprotocol/server-filesystem "/Users/me/My Documents" '' it"s  x"`),
    ).toEqual([
      'npx',
      '-y',
      '@modelcontextprotocol/server-filesystem',
      '/Users/me/My Documents',
      '',
      'its  x',
    ]);
    expect(splitCommandLine('  node C:\\servers\\files.js  ')).toEqual(['node', 'C:\\servers\\files.js']);
  });

  it('shows a server’s command line so that it reads back as the same program and arguments', () => {
    const words = [
      'node',
      '-e',
      'setTimeout(() => {}, 600000)',
      '/Users/me/My Documents',
      '',
      'say "hi"',
      'C:\\x',
    ];
    expect(joinCommandLine(words)).toBe(
      `node -e "setTimeout(() => {}, 600000)" "/Users/me/My Documents" "" 'say "hi"' C:\\x`,
    );
    expect(splitCommandLine(joinCommandLine(words))).toEqual(words);
  });

  it('writes an argument with both kinds of quote so that it reads back whole, as the card’s Edit saves it', () => {
    const words = ['node', '--user={"name":"O\'Brien"}', `it's "x"`, `"'`];
    expect(joinCommandLine(words)).toBe(
      `node "--user={"'"'"name"'"'":"'"'"O'Brien"'"'"}" "it's "'"'"x"'"' '"'"'"`,
    );
    expect(splitCommandLine(joinCommandLine(words))).toEqual(words);
    const config = McpServerConfig.parse({ transport: 'stdio', command: 'node', args: words.slice(1) });
    expect(readEditedTarget(targetLine(config), config)).toEqual({
      ok: true,
      changes: { transport: 'stdio', command: 'node', args: words.slice(1) },
    });
  });

  it('refuses a name already taken rather than replace that server, and reads a URL as an HTTP server', () => {
    const fields = { name: 'files', target: 'npx server', secretLines: '' };
    expect(readAddServerForm(fields, ['files'])).toEqual({
      ok: false,
      problem: 'There is already a server named files. Choose another name, or remove that one first.',
    });
    expect(readAddServerForm({ ...fields, name: 'a__b' }, [])).toMatchObject({ ok: false });
    expect(readAddServerForm({ ...fields, target: '  ' }, [])).toEqual({
      ok: false,
      problem: 'Give a command or a URL.',
    });
    const remote = readAddServerForm(
      { name: 'gh', target: 'https://example.com/mcp', secretLines: 'Authorization: Bearer abc' },
      ['files'],
    );
    expect(remote).toMatchObject({
      ok: true,
      config: { transport: 'http', url: 'https://example.com/mcp', secretHeaders: ['Authorization'] },
      secrets: { headers: { Authorization: 'Bearer abc' } },
    });
  });

  it('reads a server’s edited command line or address, keeping it the same kind of server', () => {
    const command = McpServerConfig.parse({ transport: 'stdio', command: 'node', args: ['/My Documents'] });
    const address = McpServerConfig.parse({ transport: 'http', url: 'https://example.com/mcp' });
    expect(targetLine(command)).toBe('node "/My Documents"');
    expect(targetLine(address)).toBe('https://example.com/mcp');
    expect(readEditedTarget(' npx -y "a b" ', command)).toEqual({
      ok: true,
      changes: { transport: 'stdio', command: 'npx', args: ['-y', 'a b'] },
    });
    expect(readEditedTarget('https://example.org/mcp', address)).toEqual({
      ok: true,
      changes: { transport: 'http', url: 'https://example.org/mcp' },
    });
    expect(readEditedTarget('  ', command)).toEqual({ ok: false, problem: 'Give a command.' });
    expect(readEditedTarget('https://example.org/mcp', command)).toEqual({
      ok: false,
      problem:
        'This server is started by a command: give its command line. To use a server at an address, add it as a new server.',
    });
    expect(readEditedTarget('npx server', address)).toMatchObject({ ok: false });
  });
});
