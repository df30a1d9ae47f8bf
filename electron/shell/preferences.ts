import ElectronStore from 'electron-store';
import { readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

/**
 * The shell's own preferences: window bounds, the tray, the global shortcut, launch at login and which
 * events notify. THE SPLIT: the core's settings (trust level, rules, runs, the side-effects pause) stay in
 * SQLite, where the headless host reads them too; these mean something only to a desktop window, so they
 * live in electron-store (`shell.json` in the user-data folder), checked by the zod schema below on every
 * read and write.
 */
const Bounds = z.object({
  x: z.number().int(),
  y: z.number().int(),
  width: z.number().int().min(200).max(20_000),
  height: z.number().int().min(200).max(20_000),
});

export const ShellPreferences = z.object({
  mainWindow: z.object({ bounds: Bounds.optional(), isMaximized: z.boolean().default(false) }).default({
    isMaximized: false,
  }),
  showTray: z.boolean().default(true),
  /** An Electron accelerator. Alt is Option on macOS, so one default reads right on every platform. */
  quickPromptShortcut: z.string().max(60).default('Alt+Space'),
  launchAtLogin: z.boolean().default(false),
  notifications: z
    .object({
      runFinished: z.boolean().default(true),
      approvalNeeded: z.boolean().default(true),
      limitReached: z.boolean().default(true),
    })
    .default({ runFinished: true, approvalNeeded: true, limitReached: true }),
});
export type ShellPreferences = z.infer<typeof ShellPreferences>;
export type WindowBounds = z.infer<typeof Bounds>;

/** The electron-store file (without `.json`: electron-store adds it). */
export const PREFERENCES_STORE = 'shell';
export const PREFERENCES_FILE = `${PREFERENCES_STORE}.json`;
/** The plain JSON file the preferences were kept in before electron-store; read once, then renamed. */
export const LEGACY_PREFERENCES_FILE = 'shell-preferences.json';

export interface PreferencesStore {
  get(): ShellPreferences;
  update(change: (current: ShellPreferences) => ShellPreferences): ShellPreferences;
}

/** Reads once, writes on every update. A missing or invalid store gives the defaults, with a warning. */
export function openPreferences(dataDir: string): PreferencesStore {
  warnIfUnreadable(join(dataDir, PREFERENCES_FILE));
  const store = new ElectronStore<Record<string, unknown>>({
    cwd: dataDir,
    name: PREFERENCES_STORE,
    // A hand-edited file with a syntax error must not stop the app from starting: it starts afresh.
    clearInvalidConfig: true,
  });
  let current = migrateLegacyFile(dataDir, store) ?? check(store.store);
  return {
    get: () => current,
    update(change) {
      current = ShellPreferences.parse(change(current));
      // electron-store writes atomically (write beside, then rename): a crash leaves the old file whole.
      store.store = current;
      return current;
    },
  };
}

/** electron-store starts afresh from a file that is not JSON; the log says so, rather than nothing. */
function warnIfUnreadable(file: string): void {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return;
  }
  try {
    JSON.parse(text);
  } catch {
    console.warn(`[preferences] ${PREFERENCES_FILE} is not valid JSON; using the defaults`);
  }
}

function check(stored: unknown): ShellPreferences {
  const parsed = ShellPreferences.safeParse(stored);
  if (parsed.success) return parsed.data;
  console.warn(`[preferences] ${PREFERENCES_FILE} is not valid; using the defaults`);
  return ShellPreferences.parse({});
}

/**
 * Once: the preferences of a Deputy from before electron-store move into it, checked by the same schema
 * (what does not pass falls back to the defaults, field by field as the schema allows). The old file is
 * renamed, not deleted, so nothing the person set is lost even if this went wrong.
 */
function migrateLegacyFile(
  dataDir: string,
  store: ElectronStore<Record<string, unknown>>,
): ShellPreferences | null {
  const legacy = join(dataDir, LEGACY_PREFERENCES_FILE);
  let text: string;
  try {
    text = readFileSync(legacy, 'utf8');
  } catch {
    return null;
  }
  let preferences = ShellPreferences.parse({});
  try {
    const parsed = ShellPreferences.safeParse(JSON.parse(text));
    if (parsed.success) preferences = parsed.data;
    else console.warn(`[preferences] ${LEGACY_PREFERENCES_FILE} was not valid; starting from the defaults`);
  } catch {
    console.warn(`[preferences] ${LEGACY_PREFERENCES_FILE} could not be read; starting from the defaults`);
  }
  store.store = preferences;
  renameSync(legacy, `${legacy}.migrated`);
  return preferences;
}
