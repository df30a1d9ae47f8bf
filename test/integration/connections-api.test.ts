import Database from 'better-sqlite3';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createHost, DATABASE_FILE } from '../../electron/host/create-host';
import { dispatchCommand } from '../../electron/host/dispatch';
import { createSafeStorageCipher } from '../../electron/vault/cipher';
import { REDACTED, redactSecrets } from '../../electron/vault/redactor';
import { startHttpServer, type RunningServer } from '../../electron/server/http-server';
import { ConnectionsListOutput, MemoryListOutput, type ConnectionsChangedEvent } from '../../shared/contract';
import { openHost, type HostFixture } from '../support/host-fixture';
import { call, say, ScriptedModel } from '../support/scripted-model';

const TOKEN = 'connections-test-token';
const GEMINI_KEY = 'AIzaSyC-connections-test-key-0000000000000';
const opened: { fixture: HostFixture; server: RunningServer }[] = [];

async function start(model = new ScriptedModel()): Promise<{ fixture: HostFixture; api: typeof fetch }> {
  const fixture = await openHost(model, { env: { GEMINI_API_KEY: '' } });
  const server = await startHttpServer({
    host: fixture.host,
    token: TOKEN,
    port: 0,
    rendererDir: fixture.dataDir,
    logError: () => {},
  });
  opened.push({ fixture, server });
  const api = ((path: string, init: RequestInit = {}) =>
    fetch(`${server.url}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json', ...init.headers },
    })) as typeof fetch;
  return { fixture, api };
}
afterEach(async () => {
  for (const { fixture, server } of opened.splice(0)) {
    await server.close();
    await fixture.close();
  }
});

/** Every byte of every file in the data folder, for scans that must not find a secret. */
function dataFolderBytes(dir: string): Buffer {
  const parts: Buffer[] = [];
  for (const name of readdirSync(dir, { recursive: true }) as string[]) {
    const path = join(dir, name);
    if (statSync(path).isFile()) parts.push(readFileSync(path));
  }
  return Buffer.concat(parts);
}

describe('connections over HTTP', () => {
  it('lists every service with its status and no secret', async () => {
    const { api } = await start();
    const response = await api('/api/connections');
    expect(response.status).toBe(200);
    const { connections } = ConnectionsListOutput.parse(await response.json());
    expect(connections.find((connection) => connection.name === 'gemini')).toMatchObject({
      state: 'disconnected',
      account: null,
    });
  });

  it('stores a pasted Gemini key in the vault, reports it connected, and forgets it on disconnect', async () => {
    const { fixture, api } = await start();
    const changes: ConnectionsChangedEvent[] = [];
    fixture.host.subscribe('connections.changed', {}, (event) => changes.push(event));

    const put = await api('/api/connections/gemini', {
      method: 'PUT',
      body: JSON.stringify({ apiKey: GEMINI_KEY }),
    });
    expect(put.status).toBe(200);
    const body = await put.text();
    expect(body).not.toContain(GEMINI_KEY);
    expect(JSON.parse(body)).toMatchObject({ status: { name: 'gemini', state: 'connected' } });
    expect((await fixture.host.invoke('settings.get', {})).isGeminiConfigured).toBe(true);
    expect(changes.at(-1)?.connections.find((c) => c.name === 'gemini')?.state).toBe('connected');
    expect(dataFolderBytes(fixture.dataDir).includes(Buffer.from(GEMINI_KEY))).toBe(false);

    const deleted = await api('/api/connections/gemini', { method: 'DELETE' });
    expect(await deleted.json()).toMatchObject({ status: { state: 'disconnected' } });
    expect((await fixture.host.invoke('settings.get', {})).isGeminiConfigured).toBe(false);
  });

  it('publishes each tool with its category, risk, integration and schemas', async () => {
    const { api } = await start();
    const { tools } = (await (await api('/api/tools')).json()) as {
      tools: { name: string; requires: string | null }[];
    };
    expect(tools.find((tool) => tool.name === 'save_memory')).toMatchObject({
      category: 'create',
      hasSideEffects: true,
      requires: null,
      output: { type: 'object' },
    });
  });

  it('answers bad input with typed 4xx errors', async () => {
    const { api } = await start();
    const empty = await api('/api/connections/gemini', {
      method: 'PUT',
      body: JSON.stringify({ apiKey: '' }),
    });
    expect(empty.status).toBe(400);
    expect(await empty.json()).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    const unknown = await api('/api/connections/dropbox', { method: 'DELETE' });
    expect(unknown.status).toBe(400);
    const extra = await api('/api/connections/gemini', {
      method: 'PUT',
      body: JSON.stringify({ apiKey: 'k'.repeat(20), isAdmin: true }),
    });
    expect(extra.status).toBe(400);
  });
});

describe('without a safe place for secrets', () => {
  it('refuses to connect anything, says why, and stores nothing', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'deputy-nokeychain-'));
    const cipher = createSafeStorageCipher(
      {
        isEncryptionAvailable: () => true,
        getSelectedStorageBackend: () => 'basic_text',
        encryptString: () => Buffer.from(''),
        decryptString: () => '',
      },
      'linux',
    );
    const host = await createHost({ dataDir, env: {}, cipher, logError: () => {} });
    try {
      const connect = dispatchCommand(
        host,
        'connections.connect',
        { name: 'gemini', apiKey: GEMINI_KEY },
        () => {},
      );
      expect(await connect).toEqual({
        ok: false,
        error: { code: 'secrets_unavailable', message: expect.stringMatching(/GNOME Keyring or KWallet/) },
      });
      const { connections } = await host.invoke('connections.list', {});
      expect(connections.find((connection) => connection.name === 'gemini')).toMatchObject({
        state: 'disconnected',
        error: expect.stringMatching(/fixed key/),
      });
      expect(host.vault.has('gemini.apiKey')).toBe(false);
    } finally {
      await host.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('secrets from the environment', () => {
  it('are redacted like the vault’s own, whatever their shape', async () => {
    const slackClientSecret = '0f1e2d3c4b5a69788796a5b4c3d2e1f0';
    const fixture = await openHost(null, { env: { DEPUTY_SLACK_CLIENT_SECRET: slackClientSecret } });
    try {
      expect(redactSecrets(`client_secret is ${slackClientSecret}`)).toBe(`client_secret is ${REDACTED}`);
    } finally {
      await fixture.close();
    }
  });
});

describe('memories', () => {
  it('a run saves a memory, the next run gets it in [ABOUT THE USER], and HTTP lists, edits and deletes it', async () => {
    const model = new ScriptedModel(
      call('save_memory', { text: 'Ana Lopez is my manager.', intent: 'remember', confidence: 0.95 }),
      say('I will remember that.'),
      say('Noted.'),
    );
    const { fixture, api } = await start(model);
    await fixture.host.invoke('connections.connect', { name: 'gemini', apiKey: GEMINI_KEY });
    await fixture.host.invoke('settings.set', {
      userName: 'Ada',
      userEmail: 'ada@example.com',
      trustLevel: 'autonomous',
    });
    expect((await fixture.host.runToEnd({ prompt: 'Remember that Ana Lopez is my manager' })).status).toBe(
      'completed',
    );
    await fixture.host.runToEnd({ prompt: 'Draft a note to Ana about Friday' });
    const instruction = model.requests.at(-1)?.systemInstruction ?? '';
    expect(instruction).toContain('Name: Ada');
    expect(instruction).toContain('Email: ada@example.com');
    expect(instruction).toContain('- Ana Lopez is my manager.');

    const listed = MemoryListOutput.parse(await (await api('/api/memories')).json());
    expect(listed.memories.map((memory) => memory.text)).toEqual(['Ana Lopez is my manager.']);
    const id = listed.memories[0]?.id ?? '';
    const edited = await api(`/api/memories/${id}`, {
      method: 'PUT',
      body: JSON.stringify({ text: 'Ana Lopez is my skip manager.' }),
    });
    expect(await edited.json()).toMatchObject({ memory: { id, text: 'Ana Lopez is my skip manager.' } });
    const searched = MemoryListOutput.parse(await (await api('/api/memories?q=skip')).json());
    expect(searched.memories).toHaveLength(1);
    expect((await api(`/api/memories/${id}`, { method: 'DELETE' })).status).toBe(200);
    const missing = await api(`/api/memories/${id}`, { method: 'DELETE' });
    expect(missing.status).toBe(404);
  });

  it('a run goes on when memory cannot be read', async () => {
    const model = new ScriptedModel(say('Hello.'));
    const { fixture } = await start(model);
    await fixture.host.invoke('connections.connect', { name: 'gemini', apiKey: GEMINI_KEY });
    const db = new Database(join(fixture.dataDir, DATABASE_FILE));
    db.exec('DROP TABLE memories_fts');
    db.close();
    const response = await fixture.host.runToEnd({ prompt: 'Say hello' });
    expect(response.status).toBe('completed');
    expect(fixture.errors.length).toBeGreaterThan(0);
    expect(model.requests[0]?.systemInstruction).toContain('[ABOUT THE USER]');
  });
});
