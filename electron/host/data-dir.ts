import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Env } from './settings';

/** Where the headless host keeps its data: DEPUTY_DATA_DIR, else the OS's per-user data folder. */
export function resolveDataDir(
  env: Env,
  platform: NodeJS.Platform = process.platform,
  home = homedir(),
): string {
  if (env.DEPUTY_DATA_DIR) return env.DEPUTY_DATA_DIR;
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'Deputy');
  if (platform === 'win32') return join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), 'Deputy');
  return join(env.XDG_DATA_HOME || join(home, '.local', 'share'), 'deputy');
}
