import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Env } from '../host/settings';
import type { Vault } from '../vault/vault';

/** Where an older Deputy kept the token in clear; it is moved into the vault and the file removed. */
const LEGACY_TOKEN_FILE = 'api-token';

/**
 * The headless API's bearer token: DEPUTY_API_TOKEN when set, else one generated on first start and kept,
 * encrypted, in the vault. `isNew` tells the caller to print it, once.
 */
export function resolveApiToken(env: Env, vault: Vault, dataDir: string): { token: string; isNew: boolean } {
  const fromEnv = env.DEPUTY_API_TOKEN?.trim();
  if (fromEnv) return { token: fromEnv, isNew: false };
  const stored = vault.get('api.token');
  if (stored) return { token: stored, isNew: false };
  const legacy = join(dataDir, LEGACY_TOKEN_FILE);
  if (existsSync(legacy)) {
    const token = readFileSync(legacy, 'utf8').trim();
    if (token) {
      vault.set('api.token', token);
      rmSync(legacy);
      return { token, isNew: false };
    }
  }
  const token = randomBytes(32).toString('base64url');
  vault.set('api.token', token);
  return { token, isNew: true };
}
