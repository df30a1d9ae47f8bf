import { chmodSync, existsSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Only the person who runs Deputy may list the data folder, or read and write what is in it. */
export const PRIVATE_FOLDER_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/**
 * Creates the data folder owner-only, or tightens an existing one and the named files in it that others could
 * read (an older Deputy, a copied backup, a permissive umask). Returns one notice for each thing it tightened,
 * so the person hears about it the one time it happens. On Windows, modes mean nothing: the folder inherits
 * the ACL of the user's profile, which already keeps other users out.
 */
export function makeFolderPrivate(
  dir: string,
  files: readonly string[],
  platform: NodeJS.Platform = process.platform,
): string[] {
  if (!existsSync(dir)) {
    mkdirSync(dir, { recursive: true, mode: PRIVATE_FOLDER_MODE });
    // mkdir's mode passes through the umask, which can only take bits away: 0700 stays 0700 or less.
    return [];
  }
  if (platform === 'win32') return [];
  const notices: string[] = [];
  const folderNotice = tighten(dir, PRIVATE_FOLDER_MODE);
  if (folderNotice) notices.push(folderNotice);
  for (const name of files) {
    const path = join(dir, name);
    if (!existsSync(path)) continue;
    const notice = tighten(path, PRIVATE_FILE_MODE);
    if (notice) notices.push(notice);
  }
  return notices;
}

/**
 * Sets `mode` when the path grants more than it (to the group or to others); a notice says what it was. A path
 * Deputy may not change (another user's) throws, and Deputy does not start, as a database server refuses a
 * data folder others can read.
 */
function tighten(path: string, mode: number): string | null {
  const was = statSync(path).mode & 0o777;
  if ((was & ~mode) === 0) return null;
  chmodSync(path, mode);
  return `Tightened permissions of ${path} to owner-only (was ${was.toString(8).padStart(4, '0')}).`;
}
