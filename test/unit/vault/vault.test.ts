import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../electron/store/database';
import {
  createKeyFileCipher,
  createSafeStorageCipher,
  VaultUnavailableError,
  type SafeStorageLike,
} from '../../../electron/vault/cipher';
import {
  forgetKnownSecrets,
  REDACTED,
  redactedJson,
  redactError,
  redactErrorMessage,
  redactSecrets,
  redactValue,
} from '../../../electron/vault/redactor';
import { Vault } from '../../../electron/vault/vault';
import { resolveApiToken } from '../../../electron/server/api-token';

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'deputy-vault-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function openVault(dir = tempDir()): { vault: Vault; dir: string; rawSecrets: () => Buffer } {
  const db = openDatabase(join(dir, 'deputy.db'));
  const vault = new Vault(db, createKeyFileCipher(join(dir, 'vault.key')));
  const rawSecrets = (): Buffer =>
    Buffer.concat(
      db
        .prepare<[], { name: string; ciphertext: Buffer }>('SELECT name, ciphertext FROM secrets')
        .all()
        .map((row) => Buffer.concat([Buffer.from(row.name), row.ciphertext])),
    );
  return { vault, dir, rawSecrets };
}

describe('key-file cipher', () => {
  it('creates a 0600 key file and round-trips text through AES-256-GCM', () => {
    const dir = tempDir();
    const cipher = createKeyFileCipher(join(dir, 'vault.key'));
    const sealed = cipher.encrypt('résumé ✓ secret');
    expect(sealed.includes(Buffer.from('secret'))).toBe(false);
    expect(cipher.decrypt(sealed)).toBe('résumé ✓ secret');
    expect(statSync(join(dir, 'vault.key')).mode & 0o777).toBe(0o600);
  });

  it('seals the same text differently each time (random IV)', () => {
    const cipher = createKeyFileCipher(join(tempDir(), 'vault.key'));
    expect(cipher.encrypt('same').equals(cipher.encrypt('same'))).toBe(false);
  });

  it('refuses a tampered ciphertext and one sealed with another key', () => {
    const cipher = createKeyFileCipher(join(tempDir(), 'vault.key'));
    const sealed = cipher.encrypt('the refresh token');
    const tampered = Buffer.from(sealed);
    tampered[tampered.length - 1] = (tampered.at(-1) ?? 0) ^ 1;
    expect(() => cipher.decrypt(tampered)).toThrow(VaultUnavailableError);
    const other = createKeyFileCipher(join(tempDir(), 'vault.key'));
    expect(() => other.decrypt(sealed)).toThrow(/could not be decrypted/);
  });

  it('reuses an existing key file and rejects a damaged one', () => {
    const dir = tempDir();
    const sealed = createKeyFileCipher(join(dir, 'vault.key')).encrypt('kept');
    expect(createKeyFileCipher(join(dir, 'vault.key')).decrypt(sealed)).toBe('kept');
    writeFileSync(join(dir, 'bad.key'), 'not a key');
    expect(() => createKeyFileCipher(join(dir, 'bad.key'))).toThrow(/damaged/);
  });
});

describe('safeStorage cipher', () => {
  const storage = (available: boolean, backend?: string): SafeStorageLike => ({
    isEncryptionAvailable: () => available,
    encryptString: (plain) => Buffer.from(plain.split('').reverse().join('')),
    decryptString: (sealed) => sealed.toString().split('').reverse().join(''),
    ...(backend && { getSelectedStorageBackend: () => backend }),
  });

  it('uses the OS keychain when it is there', () => {
    const cipher = createSafeStorageCipher(storage(true, 'gnome_libsecret'), 'linux');
    expect(cipher.unavailableReason()).toBeNull();
    expect(cipher.decrypt(cipher.encrypt('abc'))).toBe('abc');
  });

  it('refuses to store when encryption is unavailable', () => {
    const cipher = createSafeStorageCipher(storage(false), 'darwin');
    expect(cipher.unavailableReason()).toMatch(/keychain is not available/);
    expect(() => cipher.encrypt('abc')).toThrow(VaultUnavailableError);
  });

  it("refuses Linux's basic_text backend, which would use a fixed key", () => {
    const cipher = createSafeStorageCipher(storage(true, 'basic_text'), 'linux');
    expect(cipher.unavailableReason()).toMatch(/fixed key/);
    expect(() => cipher.encrypt('abc')).toThrow(/GNOME Keyring or KWallet/);
    // The same backend name means nothing on other platforms.
    expect(createSafeStorageCipher(storage(true, 'basic_text'), 'win32').unavailableReason()).toBeNull();
  });

  it('a vault over an unavailable cipher stores nothing', () => {
    const db = openDatabase(':memory:');
    const vault = new Vault(db, createSafeStorageCipher(storage(false), 'linux'));
    expect(() => vault.set('slack.token', 'xoxp-never-stored-1234567890')).toThrow(VaultUnavailableError);
    expect(vault.has('slack.token')).toBe(false);
  });
});

describe('vault', () => {
  it('keeps secrets encrypted at rest and reads them back', () => {
    const { vault, rawSecrets } = openVault();
    vault.set('gemini.apiKey', 'AIzaSyD-plaintext-gemini-key-000000000000');
    vault.setJson('google.tokens', {
      access_token: 'ya29.a0-access-token-value',
      refresh_token: '1//refresh-value-123456789012345',
    });
    expect(vault.get('gemini.apiKey')).toBe('AIzaSyD-plaintext-gemini-key-000000000000');
    expect(vault.getJson('google.tokens', (value) => value as Record<string, string>)).toEqual({
      access_token: 'ya29.a0-access-token-value',
      refresh_token: '1//refresh-value-123456789012345',
    });
    const raw = rawSecrets().toString('latin1');
    for (const secret of ['plaintext-gemini-key', 'a0-access-token', 'refresh-value'])
      expect(raw).not.toContain(secret);
  });

  it('survives a restart with the same key file, and deletes for good', () => {
    const { vault, dir } = openVault();
    vault.set('slack.token', 'xoxp-111-222-333-persisted');
    const reopened = openVault(dir).vault;
    expect(reopened.get('slack.token')).toBe('xoxp-111-222-333-persisted');
    reopened.delete('slack.token');
    expect(reopened.get('slack.token')).toBeNull();
    expect(reopened.has('slack.token')).toBe(false);
  });

  it('hands every secret it handles to the redactor, including credential fields of JSON secrets', () => {
    const { vault } = openVault();
    vault.set('gemini.apiKey', 'custom-key-without-a-known-shape');
    vault.setJson('slack.client', {
      clientId: 'public-client-id-42',
      clientSecret: 'unshaped-client-secret-99',
    });
    const text =
      'key custom-key-without-a-known-shape, secret unshaped-client-secret-99, id public-client-id-42';
    expect(redactSecrets(text)).toBe(`key ${REDACTED}, secret ${REDACTED}, id public-client-id-42`);
  });

  it('knows every stored secret after a restart once rememberAll has run, before any is read', () => {
    const { vault, dir } = openVault();
    vault.set('gemini.apiKey', 'restart-key-without-a-known-shape');
    vault.setJson('google.client', { clientId: 'public-id-7', clientSecret: 'restart-unshaped-secret-7' });
    const text = 'restart-key-without-a-known-shape and restart-unshaped-secret-7, id public-id-7';
    forgetKnownSecrets();
    expect(redactSecrets(text)).toBe(text);

    const { vault: reopened } = openVault(dir);
    reopened.rememberAll();
    expect(redactSecrets(text)).toBe(`${REDACTED} and ${REDACTED}, id public-id-7`);
  });
  it("knows an MCP server's stored values after a restart whatever their names", () => {
    const { vault, dir } = openVault();
    vault.setJson('mcp.notes', {
      env: { NOTES_WORKSPACE: 'unshaped-workspace-value-31' },
      headers: { 'X-Tenant': 'unshaped-tenant-value-32' },
    });
    const text = 'workspace unshaped-workspace-value-31, tenant unshaped-tenant-value-32';
    forgetKnownSecrets();
    const { vault: reopened } = openVault(dir);
    reopened.rememberAll();
    expect(redactSecrets(text)).toBe(`workspace ${REDACTED}, tenant ${REDACTED}`);
  });

  it('knows the credential of a value stored with its scheme, pasted alone', () => {
    const { vault } = openVault();
    vault.set('api.token', 'Bearer unshaped-credential-after-scheme-33');
    expect(redactSecrets('curl -H "X-Token: unshaped-credential-after-scheme-33"')).toBe(
      `curl -H "X-Token: ${REDACTED}"`,
    );
    expect(redactSecrets('Bearer is a word; bearer of news')).toBe('Bearer is a word; bearer of news');
  });
});

describe('a vault whose keychain locks later', () => {
  it('reads as empty (callers see "not connected") instead of failing, and says why', () => {
    let isLocked = false;
    const db = openDatabase(':memory:');
    const storage: SafeStorageLike = {
      isEncryptionAvailable: () => !isLocked,
      encryptString: (plain) => Buffer.from(plain, 'utf8').reverse(),
      decryptString: (sealed) => Buffer.from(sealed).reverse().toString('utf8'),
    };
    const vault = new Vault(db, createSafeStorageCipher(storage, 'darwin'));
    vault.set('slack.token', 'xoxp-locked-later-123456789');
    isLocked = true;
    expect(vault.get('slack.token')).toBeNull();
    expect(vault.has('slack.token')).toBe(true);
    expect(vault.unavailableReason()).toMatch(/keychain/);
  });
});

describe('a vault read on every step', () => {
  it('opens a stored value once, again only when it is written again, and still not while the keychain is locked', () => {
    let isLocked = false;
    let opened = 0;
    const storage: SafeStorageLike = {
      isEncryptionAvailable: () => !isLocked,
      encryptString: (plain) =>
        Buffer.concat([Buffer.from(String(Math.random())), Buffer.from('|'), Buffer.from(plain)]),
      decryptString: (sealed) => {
        opened += 1;
        return sealed.toString('utf8').split('|')[1] ?? '';
      },
    };
    const vault = new Vault(openDatabase(':memory:'), createSafeStorageCipher(storage, 'darwin'));
    vault.set('gemini.apiKey', 'read-on-every-step-key-1');
    for (let read = 0; read < 5; read += 1)
      expect(vault.get('gemini.apiKey')).toBe('read-on-every-step-key-1');
    expect(opened).toBe(1);
    vault.set('gemini.apiKey', 'read-on-every-step-key-2');
    expect(vault.get('gemini.apiKey')).toBe('read-on-every-step-key-2');
    expect(opened).toBe(2);
    isLocked = true;
    expect(vault.get('gemini.apiKey')).toBeNull();
    isLocked = false;
    expect(vault.get('gemini.apiKey')).toBe('read-on-every-step-key-2');
    vault.delete('gemini.apiKey');
    expect(vault.get('gemini.apiKey')).toBeNull();
  });
});

describe('redactor', () => {
  it.each([
    ['a Google access token', 'Authorization failed for ya29.a0AfH6SMBx-abcdefghijklmnop'],
    ['a Google refresh token', 'refresh 1//0gLx-abcdefghijklmnopqrstuvwxyz'],
    ['a Gemini API key', 'key=AIzaSyA-abcdefghijklmnopqrstuvwxyz0123456'],
    ['a Slack user token', 'token xoxp-1234567890-0987654321-abcdefabcdef'],
    ['an OAuth client secret', 'GOCSPX-abcdefghijklmnopqrst'],
    ['a bearer header', 'Bearer abcdefghijklmnopqrstuvwxyz012345'],
    ['a JSON token field', '{"access_token":"abcdefghijklmnopqrstuvwxyz0123"}'],
    // One example of every shape, so a shape the quick first test (SHAPE_HINT) does not know fails here.
    ['a Slack bot token', 'xoxb-1234567890-abcdefghijklmnop'],
    ['a Slack app token', 'xapp-1-A0123-abcdefghijklmnop'],
    ['a lower-case bearer header', 'authorization: bearer abcdefghijklmnopqrstuvwxyz012345'],
    ['an upper-case bearer header', 'AUTHORIZATION: BEARER abcdefghijklmnopqrstuvwxyz012345'],
    ['a refresh token field', 'refresh_token=abcdefghijklmnopqrstuvwxyz0123'],
    ['a client secret field', "client_secret: 'abcdefghijklmnopqrstuvwxyz0123'"],
    ['an id token field', 'id_token=abcdefghijklmnopqrstuvwxyz0123'],
    ['an api_key field', 'api_key=abcdefghijklmnopqrstuvwxyz0123'],
    ['an apiKey field', '{"apiKey":"abcdefghijklmnopqrstuvwxyz0123"}'],
    ['a bare token field', 'token: abcdefghijklmnopqrstuvwxyz0123'],
  ])('takes out %s', (_label, text) => {
    const redacted = redactSecrets(text);
    expect(redacted).toContain(REDACTED);
    expect(redacted).not.toMatch(/abcdefghijklmnop/);
  });

  const pem = [
    '-----BEGIN RSA PRIVATE KEY-----',
    'MIIEowIBAAKCAQEAabcdefghijklmnop0123456789+/abcdefghijklmnopqrstuv',
    'qrstuvwxyz0123456789abcdefghijklmnopqrstuvwxyzABCDEFGH==',
    '-----END RSA PRIVATE KEY-----',
  ].join('\n');
  const jwt =
    'eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwiZXhwIjoxfQ.abcdefghijklmnop-Sig_0123';

  it.each([
    ['a PEM private key', `here is my key:\n${pem}\nthanks`],
    ['a PKCS#8 private key', pem.replaceAll('RSA PRIVATE', 'PRIVATE')],
    ['a PEM key cut off before its END line', pem.split('\n').slice(0, 3).join('\n')],
    ['a JWT', `session=${jwt}; path=/`],
  ])('takes out %s', (_label, text) => {
    const redacted = redactSecrets(text);
    expect(redacted).toContain(REDACTED);
    expect(redacted).not.toMatch(/abcdefghijklmnop|MIIEow|qrstuvwxyz0123/);
  });

  it('takes a PEM key out of JSON (escaped newlines) and leaves the JSON readable', () => {
    const value = { body: `key:\n${pem}`, note: 'see -----END RSA PRIVATE KEY----- above', n: 1 };
    const json = redactedJson(value);
    expect(json).not.toMatch(/MIIEow|qrstuvwxyz0123/);
    expect(JSON.parse(json)).toEqual({ body: `key:\n${REDACTED}`, note: value.note, n: 1 });
  });

  it('leaves ordinary text alone', () => {
    const text = 'Lunch with Ana on Friday at 12:30, token of appreciation, see https://example.com/a-b';
    expect(redactSecrets(text)).toBe(text);
  });

  it('redacts inside values and errors, returning the same object when there is nothing to hide', () => {
    const clean = { tool: 'gmail_send', args: { to: ['a@b.c'] } };
    expect(redactValue(clean)).toBe(clean);
    const dirty = {
      error: 'HTTP 401 for Bearer abcdefghijklmnopqrstuvwxyz012345',
      nested: [{ t: 'xoxb-1-2-abcdefghijkl' }],
    };
    expect(JSON.stringify(redactValue(dirty))).not.toMatch(/abcdefghijkl/);
    expect(redactError(new Error('refresh failed for 1//0gLx-abcdefghijklmnopqrstuvwxyz'))).not.toContain(
      'abcdefghijklmnopqrstuvwxyz',
    );
    expect(redactErrorMessage(new Error('start failed: key AIzaSyA-abcdefghijklmnopqrstuvwxyz0123456'))).toBe(
      `start failed: key ${REDACTED}`,
    );
  });
});

describe('API token', () => {
  it('is generated once into the vault, never into a file, and DEPUTY_API_TOKEN wins', () => {
    const { vault, dir } = openVault();
    const first = resolveApiToken({}, vault, dir);
    expect(first.isNew).toBe(true);
    expect(resolveApiToken({}, vault, dir)).toEqual({ token: first.token, isNew: false });
    expect(() => statSync(join(dir, 'api-token'))).toThrow();
    expect(resolveApiToken({ DEPUTY_API_TOKEN: 'from-env-token' }, vault, dir).token).toBe('from-env-token');
  });

  it('moves a token an older version left in a file into the vault and removes the file', () => {
    const { vault, dir } = openVault();
    writeFileSync(join(dir, 'api-token'), 'legacy-token-value\n', { mode: 0o600 });
    expect(resolveApiToken({}, vault, dir)).toEqual({ token: 'legacy-token-value', isNew: false });
    expect(() => readFileSync(join(dir, 'api-token'))).toThrow();
    expect(vault.get('api.token')).toBe('legacy-token-value');
  });
});
