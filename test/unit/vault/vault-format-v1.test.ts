import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { GoogleClient, GoogleTokens, parseWith } from '../../../electron/connections/google-oauth';
import { parseApp, parseSignIn } from '../../../electron/connections/slack-credentials';
import { McpSecretStore } from '../../../electron/mcp/mcp-secrets';
import { openDatabase, type Db } from '../../../electron/store/database';
import { createKeyFileCipher } from '../../../electron/vault/cipher';
import { forgetKnownSecrets, REDACTED, redactSecrets } from '../../../electron/vault/redactor';
import { Vault } from '../../../electron/vault/vault';
import { VAULT_V1_VALUES as VALUES } from '../../fixtures/vault-v1-values';

/**
 * The vault's disk format, frozen at its first version (test/fixtures/make-vault-v1.ts): the headless host's
 * key file, the sealed form of a secret, and the JSON shape each kind of secret was stored in. A person's saved
 * keys and sign-ins must still open after an upgrade; a change to any of the three shows up here.
 */
const FIXTURE = join(import.meta.dirname, '..', '..', 'fixtures', 'vault');

const opened: { dir: string; db: Db }[] = [];
afterEach(() => {
  for (const { dir, db } of opened.splice(0)) {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
  forgetKnownSecrets();
});

/** A fresh database holding the frozen sealed rows, and a vault over a copy of the frozen key file. */
function openFrozenVault(): Vault {
  const dir = mkdtempSync(join(tmpdir(), 'deputy-vault-v1-'));
  copyFileSync(join(FIXTURE, 'vault-v1.key'), join(dir, 'vault.key'));
  const db = openDatabase(join(dir, 'deputy.db'));
  opened.push({ dir, db });
  const rows = JSON.parse(readFileSync(join(FIXTURE, 'secrets-v1.json'), 'utf8')) as {
    name: string;
    sealed: string;
  }[];
  const insert = db.prepare<[string, Buffer]>(
    "INSERT INTO secrets (name, ciphertext, updated_at) VALUES (?, ?, '2026-11-28T04:03:00.000Z')",
  );
  for (const row of rows) insert.run(row.name, Buffer.from(row.sealed, 'base64'));
  return new Vault(db, createKeyFileCipher(join(dir, 'vault.key')));
}

describe('the vault at format version 1', () => {
  it('opens every kind of secret with the frozen key file', () => {
    const vault = openFrozenVault();
    expect(vault.get('gemini.apiKey')).toBe(VALUES['gemini.apiKey']);
    expect(vault.get('api.token')).toBe(VALUES['api.token']);
    expect(vault.getJson('google.client', parseWith(GoogleClient))).toEqual(VALUES['google.client']);
    expect(vault.getJson('google.tokens', parseWith(GoogleTokens))).toEqual(VALUES['google.tokens']);
    expect(vault.getJson('slack.client', parseApp)).toEqual(VALUES['slack.client']);
    expect(vault.getJson('slack.token', parseSignIn)).toEqual(VALUES['slack.token']);
    expect(new McpSecretStore(vault).get('github')).toEqual(VALUES['mcp.github']);
  });

  it('hands every stored secret to the redactor at start-up, before any is read', () => {
    const vault = openFrozenVault();
    const pasted = [
      VALUES['google.tokens'].refresh_token,
      VALUES['slack.client'].clientSecret,
      VALUES['mcp.github'].headers.Authorization.replace('Bearer ', ''),
    ].join(' | ');
    vault.rememberAll();
    expect(redactSecrets(pasted)).toBe([REDACTED, REDACTED, REDACTED].join(' | '));
  });

  it('keeps a secret sealed once readable after it is written again (same key, new IV)', () => {
    const vault = openFrozenVault();
    vault.set('gemini.apiKey', 'AIzaSyRotatedAfterUpgrade000000000000');
    expect(vault.get('gemini.apiKey')).toBe('AIzaSyRotatedAfterUpgrade000000000000');
    expect(vault.get('api.token')).toBe(VALUES['api.token']);
  });
});
