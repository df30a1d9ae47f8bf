import { describe, expect, it } from 'vitest';
import { McpServerConfig, type McpServerView } from '../../../shared/contract';
import { createExtensionsStore } from '../../../renderer/src/features/extensions/extensions-store';
import { readSecretFields, secretsNote } from '../../../renderer/src/features/extensions/secret-lines';
import { ClientError } from '../../../renderer/src/api/client-error';
import { fakeClient } from './fixtures';

const TOKEN = 'Bearer sk-unit-replaced-token-81c2';

const remote = (overrides: Partial<McpServerView> = {}): McpServerView => ({
  name: 'remote',
  config: McpServerConfig.parse({
    transport: 'http',
    url: 'https://mcp.example.com/mcp',
    secretHeaders: ['Authorization'],
    autonomy: 'notify',
  }),
  revision: '0123456789abcdef',
  state: 'failed',
  error: 'The MCP server “remote” could not start.',
  restarts: 2,
  pid: null,
  tools: [],
  maskedSecrets: [{ kind: 'header', name: 'Authorization', masked: '••••••••' }],
  isRefused: true,
  ...overrides,
});

describe('a server’s secrets replaced from its card', () => {
  it('sends the new value to the vault with the server’s settings as they are, and keeps it nowhere in its state', async () => {
    const fake = fakeClient({ 'mcp.put': async () => ({ server: remote({ state: 'running' }) }) });
    const store = createExtensionsStore(fake.client);
    const read = readSecretFields([{ kind: 'header', name: 'Authorization', value: `  ${TOKEN} ` }]);
    expect(read).toEqual({ ok: true, secrets: { env: {}, headers: { Authorization: TOKEN } } });
    if (!read.ok) return;
    expect(await store.getState().replaceSecrets(remote(), read.secrets)).toBeNull();
    expect(fake.calls).toEqual([
      {
        channel: 'mcp.put',
        input: {
          name: 'remote',
          config: remote().config,
          // Only over the settings the card shows: see the stale-card tests below.
          revision: remote().revision,
          secrets: { env: {}, headers: { Authorization: TOKEN } },
        },
      },
    ]);
    expect(store.getState()).toMatchObject({
      outcome: 'Saved the new secret of remote in the vault.',
      error: null,
    });
    expect(JSON.stringify(store.getState())).not.toContain('sk-unit');
  });

  it('makes a name the server did not have one of its secrets, so the vault keeps its value', async () => {
    const bare = remote({
      config: McpServerConfig.parse({ transport: 'http', url: 'https://x.example/mcp' }),
    });
    const fake = fakeClient({ 'mcp.put': async () => ({ server: bare }) });
    const store = createExtensionsStore(fake.client);
    await store.getState().replaceSecrets(bare, { env: {}, headers: { 'X-Api-Key': 'k' } });
    expect(fake.calls[0]?.input).toMatchObject({ config: { secretHeaders: ['X-Api-Key'], secretEnv: [] } });
  });

  it('answers why not for the form to show, and leaves the panel’s own error line empty', async () => {
    const fake = fakeClient({ 'mcp.put': () => Promise.reject(new Error('The vault is locked.')) });
    const store = createExtensionsStore(fake.client);
    const why = await store
      .getState()
      .replaceSecrets(remote(), { env: {}, headers: { Authorization: TOKEN } });
    expect(why).toBe('The vault is locked.');
    expect(store.getState().error).toBeNull();
  });

  it('refuses nothing typed, and a name its kind does not take', () => {
    expect(readSecretFields([{ kind: 'header', name: 'Authorization', value: '  ' }])).toEqual({
      ok: false,
      problem: 'Type the new value, or press Cancel to keep the one in the vault.',
    });
    expect(readSecretFields([{ kind: 'header', name: 'Api Key', value: 'k' }])).toMatchObject({
      ok: false,
      problem: expect.stringContaining('a header’s name'),
    });
    expect(readSecretFields([{ kind: 'env', name: 'API-KEY', value: 'k' }])).toMatchObject({
      ok: false,
      problem: expect.stringContaining('an environment variable’s name'),
    });
    // A field left empty keeps its value: only the one typed is sent.
    expect(
      readSecretFields([
        { kind: 'env', name: 'A_TOKEN', value: '' },
        { kind: 'env', name: 'B_TOKEN', value: 'b' },
      ]),
    ).toEqual({ ok: true, secrets: { env: { B_TOKEN: 'b' }, headers: {} } });
  });

  it('says the server starts again with the new value, or, turned off, that it starts with it when turned on', () => {
    expect(secretsNote(remote(), 1)).toBe(
      'Kept in the vault and never shown again; a field left empty keeps its value. Saving starts “remote” again with it.',
    );
    const off = remote({ config: { ...remote().config, enabled: false }, state: 'disabled' });
    expect(secretsNote(off, 1)).toBe(
      'Kept in the vault and never shown again; a field left empty keeps its value. “remote” is turned off: it starts with the new value when you turn it on.',
    );
    expect(secretsNote({ ...off, maskedSecrets: [] }, 2)).toBe(
      'Kept in the vault and never shown again. “remote” is turned off: it starts with the new values when you turn it on.',
    );
  });
});

describe('a change made on a card drawn before its server changed elsewhere', () => {
  const REFUSED =
    'The MCP server “remote” was changed elsewhere (in another window or through the API) after these settings of it were read, so nothing was saved.';
  const refusing = (servers: McpServerView[]) =>
    fakeClient({
      'mcp.put': () => Promise.reject(new ClientError('changed_since', REFUSED)),
      'mcp.list': async () => ({ servers }),
    });

  it('reads the servers again, so the card shows what is saved, and says the change was not made', async () => {
    const elsewhere = remote({
      revision: 'fedcba9876543210',
      config: { ...remote().config, enabled: false },
    });
    const fake = refusing([elsewhere]);
    const store = createExtensionsStore(fake.client);
    const why = await store
      .getState()
      .replaceSecrets(remote(), { env: {}, headers: { Authorization: TOKEN } });
    expect(why).toBe(
      `${REFUSED} Its card now shows its current settings: make your change again if you still want it.`,
    );
    expect(store.getState().servers).toEqual([elsewhere]);
    // Turn off, or any change made on the card, hands back the same words for the card to show beside it.
    expect(await store.getState().setEnabled(remote(), false)).toBe(why);
    expect(await store.getState().setAutonomy(remote(), 'auto')).toBe(why);
    expect(await store.getState().setToolAutonomy(remote(), 'search', 'auto')).toBe(why);
    expect(store.getState().error).toBeNull();
  });

  it('says only that nothing was saved when the server was removed meanwhile, in the panel, its card being gone', async () => {
    const store = createExtensionsStore(refusing([]).client);
    expect(await store.getState().changeTarget(remote(), { url: 'https://y.example/mcp' })).toBe(REFUSED);
    expect(store.getState().servers).toEqual([]);
    expect(await store.getState().setEnabled(remote(), false)).toBe(REFUSED);
    expect(store.getState().error).toBe(REFUSED);
  });
});

describe('a server added from the form', () => {
  it('is sent as new, so one of the same name is never replaced, and a refusal is said with the form kept', async () => {
    const TAKEN =
      'There is already an MCP server named “remote”, so nothing was saved. Give this one another name, or change that one on its card.';
    const fake = fakeClient({ 'mcp.put': () => Promise.reject(new ClientError('conflict', TAKEN)) });
    const store = createExtensionsStore(fake.client);
    // False: the form keeps what was typed.
    expect(await store.getState().save('remote', remote().config)).toBe(false);
    expect(fake.calls).toEqual([
      { channel: 'mcp.put', input: { name: 'remote', config: remote().config, isNew: true } },
    ]);
    expect(store.getState()).toMatchObject({ error: TAKEN, outcome: null });
  });
});
