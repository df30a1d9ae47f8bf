import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { shell } from 'electron';
import { redactError } from '../vault/redactor';

/**
 * Why a URL is being opened decides what may be opened. A link on a page (the model's answer, a mail
 * preview) leaves only as https. A sign-in started by a connector may also be a page on this machine's
 * loopback address (a local OAuth server while developing; never another host over plain http).
 */
export type ExternalPurpose = 'link' | 'sign-in';

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** True when `url` may leave the app for the user's browser for this purpose. */
export function isSafeExternalUrl(url: string, purpose: ExternalPurpose = 'link'): boolean {
  const parsed = URL.parse(url);
  if (!parsed || parsed.username || parsed.password) return false;
  if (parsed.protocol === 'https:') return true;
  return purpose === 'sign-in' && parsed.protocol === 'http:' && LOOPBACK_HOSTS.has(parsed.hostname);
}

/**
 * The one place the app calls `shell.openPath`: only a folder inside Deputy's data folder (where the person keeps
 * their own agents) is shown in the file manager; nothing is ever opened as a program or a document.
 */
export async function openDataSubfolder(dataDir: string, name: string): Promise<boolean> {
  if (!/^[a-z][a-z0-9-]*$/.test(name)) return false;
  const folder = join(dataDir, name);
  try {
    mkdirSync(folder, { recursive: true });
    // openPath answers an error message, or "" when the file manager opened.
    const problem = await shell.openPath(folder);
    if (problem) console.error(`[deputy] could not show the ${name} folder: ${problem}`);
    return problem === '';
  } catch (error) {
    console.error(`[deputy] could not show the ${name} folder: ${redactError(error)}`);
    return false;
  }
}

/**
 * The one place the app calls `shell.openExternal`: file:, javascript:, custom schemes and other hosts'
 * plain http never reach the OS, whichever window or connector asked. Resolves false when refused or failed.
 */
export async function openExternal(url: string, purpose: ExternalPurpose = 'link'): Promise<boolean> {
  if (!isSafeExternalUrl(url, purpose)) {
    console.error(
      `[security] refused to open a ${purpose} URL: only https (or a loopback sign-in page) may leave`,
    );
    return false;
  }
  try {
    await shell.openExternal(url);
    return true;
  } catch (error) {
    console.error(`[security] could not open the browser: ${redactError(error)}`);
    return false;
  }
}
