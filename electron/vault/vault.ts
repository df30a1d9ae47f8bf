import type { Db } from '../store/database';
import type { SecretCipher } from './cipher';
import { VaultUnavailableError } from './cipher';
import { rememberSecret } from './redactor';

/** The names of everything the vault holds. A JSON secret (an OAuth token set) is stored as its text. */
export type SecretName =
  | 'gemini.apiKey'
  | 'api.token'
  | 'google.client'
  | 'google.tokens'
  | 'slack.client'
  | 'slack.token'
  /** An MCP server's secret environment values and headers, one JSON object per server. */
  | `mcp.${string}`;

/**
 * Secrets encrypted at rest in the `secrets` table. Every value that goes in or comes out is handed to the
 * redactor first, so it can never reach a log, an event or an audit row in clear.
 */
export class Vault {
  private readonly select;
  private readonly selectAll;
  private readonly upsert;
  private readonly remove;
  private readonly openedRows = new Map<string, { sealed: Buffer; plain: string }>();

  constructor(
    db: Db,
    private readonly cipher: SecretCipher,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.select = db.prepare<[string], { ciphertext: Buffer }>(
      'SELECT ciphertext FROM secrets WHERE name = ?',
    );
    this.selectAll = db.prepare<[], { name: string; ciphertext: Buffer }>(
      'SELECT name, ciphertext FROM secrets',
    );
    this.upsert = db.prepare<[string, Buffer, string]>(
      `INSERT INTO secrets (name, ciphertext, updated_at) VALUES (?, ?, ?)
       ON CONFLICT (name) DO UPDATE SET ciphertext = excluded.ciphertext, updated_at = excluded.updated_at`,
    );
    this.remove = db.prepare<[string]>('DELETE FROM secrets WHERE name = ?');
  }

  /** Why secrets cannot be stored, or null. Settings shows it; `set` throws it. */
  unavailableReason(): string | null {
    return this.cipher.unavailableReason();
  }

  /**
   * The secret, or null when there is none or it cannot be read right now (a locked keychain, a changed key
   * file): callers then see "not connected" and `unavailableReason()` says why, rather than every screen failing.
   */
  get(name: SecretName): string | null {
    const row = this.select.get(name);
    const value = row ? this.opened(name, row.ciphertext) : null;
    rememberSecret(value);
    return value;
  }

  /**
   * The plain text of a stored row, opened once per sealed value: the Gemini key is read on every step (whether
   * one is set decides what Settings and the policy say), and opening it each time cost two or three AES-GCM
   * decryptions a step. The same sealed bytes under the same key always open to the same text, so only a row
   * written again is opened again; a keychain that locks is still seen at once (`decrypt` would refuse).
   */
  private opened(name: string, sealed: Buffer): string | null {
    const known = this.openedRows.get(name);
    if (known !== undefined && known.sealed.equals(sealed))
      return this.cipher.unavailableReason() === null ? known.plain : null;
    const plain = this.decrypt(sealed);
    if (plain === null) this.openedRows.delete(name);
    else this.openedRows.set(name, { sealed, plain });
    return plain;
  }

  /**
   * Hands every stored secret to the redactor. Called once at start-up: a token pasted into a prompt after a
   * restart must be recognised before anything reads it from the vault in this process. A secret that cannot
   * be decrypted right now (a locked keychain) is skipped; it is remembered when it is first read.
   */
  rememberAll(): void {
    for (const row of this.selectAll.all()) {
      // Opened through the same cache as `get`, so the first step's read does not open it again.
      const value = this.opened(row.name, row.ciphertext);
      if (value === null) continue;
      rememberSecret(value);
      // An MCP server's values are secrets whatever their names ("GITHUB_PAT", an Authorization header).
      rememberJsonSecrets(parseJsonOrNull(value), '', row.name.startsWith(MCP_PREFIX));
    }
  }

  /** The plain text, or null when the cipher cannot open it right now. */
  private decrypt(sealed: Buffer): string | null {
    try {
      return this.cipher.decrypt(sealed);
    } catch (error) {
      if (error instanceof VaultUnavailableError) return null;
      throw error;
    }
  }

  getJson<T>(name: SecretName, parse: (value: unknown) => T | null): T | null {
    const text = this.get(name);
    if (text === null) return null;
    try {
      const value = parse(JSON.parse(text));
      if (value !== null) rememberJsonSecrets(value);
      return value;
    } catch {
      return null;
    }
  }

  set(name: SecretName, value: string): void {
    const reason = this.cipher.unavailableReason();
    if (reason) throw new VaultUnavailableError(reason);
    rememberSecret(value);
    this.upsert.run(name, this.cipher.encrypt(value), this.now().toISOString());
  }

  setJson(name: SecretName, value: unknown): void {
    rememberJsonSecrets(value);
    this.set(name, JSON.stringify(value));
  }

  delete(name: SecretName): void {
    this.remove.run(name);
    this.openedRows.delete(name);
  }

  has(name: SecretName): boolean {
    return this.select.get(name) !== undefined;
  }
}

function parseJsonOrNull(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

const SECRET_FIELD = /token|secret|key|password/i;
const MCP_PREFIX = 'mcp.';

/**
 * The credential fields inside a JSON secret (access and refresh tokens, a client secret) are secrets too; with
 * `isEveryValue`, every string in it is.
 */
function rememberJsonSecrets(value: unknown, key = '', isEveryValue = false): void {
  if (typeof value === 'string') {
    if (isEveryValue || SECRET_FIELD.test(key)) rememberSecret(value);
  } else if (Array.isArray(value)) {
    for (const item of value) rememberJsonSecrets(item, key, isEveryValue);
  } else if (typeof value === 'object' && value !== null) {
    for (const [field, item] of Object.entries(value)) rememberJsonSecrets(item, field, isEveryValue);
  }
}
