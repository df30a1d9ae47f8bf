import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Env } from '../host/settings';

export const API_TOKEN_FILE = 'api-token';

/**
 * The headless API's bearer token: DEPUTY_API_TOKEN when set, else one generated on first start and kept in a
 * file only the user can read. `isNew` tells the caller to print it, once.
 */
export function resolveApiToken(env: Env, dataDir: string): { token: string; isNew: boolean } {
  const fromEnv = env.DEPUTY_API_TOKEN?.trim();
  if (fromEnv) return { token: fromEnv, isNew: false };
  const file = join(dataDir, API_TOKEN_FILE);
  if (existsSync(file)) {
    const stored = readFileSync(file, 'utf8').trim();
    if (stored) return { token: stored, isNew: false };
  }
  mkdirSync(dataDir, { recursive: true });
  const token = randomBytes(32).toString('base64url');
  writeFileSync(file, `${token}\n`, { mode: 0o600 });
  // writeFile's mode applies only to new files; make sure an old, looser file is tightened too.
  chmodSync(file, 0o600);
  return { token, isNew: true };
}
