import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { z } from 'zod';

/**
 * The shell's own preferences: window bounds, the tray, the global shortcut, launch at login and which
 * events notify. The core's settings (trust level, rules, runs) stay in SQLite, where the headless host
 * reads them too; these only mean something to a desktop window, so they live beside it, in one JSON file
 * in the user-data folder.
 *
 * Not electron-store (named in DESIGN §2): it would add five packages (conf, ajv, atomically…) and a second
 * schema language for a dozen fields; zod, a write-then-rename and this file do the same job.
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

export const PREFERENCES_FILE = 'shell-preferences.json';

export interface PreferencesStore {
  get(): ShellPreferences;
  update(change: (current: ShellPreferences) => ShellPreferences): ShellPreferences;
}

/** Reads once, writes on every update. A missing, unreadable or invalid file gives the defaults. */
export function openPreferences(dataDir: string): PreferencesStore {
  const file = join(dataDir, PREFERENCES_FILE);
  let current = read(file);
  return {
    get: () => current,
    update(change) {
      current = ShellPreferences.parse(change(current));
      mkdirSync(dirname(file), { recursive: true });
      // Written beside and renamed over, so a crash mid-write leaves the old file, never half of one.
      const temporary = `${file}.${process.pid}.tmp`;
      writeFileSync(temporary, JSON.stringify(current, null, 2));
      renameSync(temporary, file);
      return current;
    },
  };
}

function read(file: string): ShellPreferences {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return ShellPreferences.parse({});
  }
  try {
    const parsed = ShellPreferences.safeParse(JSON.parse(text));
    if (parsed.success) return parsed.data;
  } catch {
    // Falls through: a hand-edited file with a typo must not stop the app from starting.
  }
  console.warn(`[preferences] ${PREFERENCES_FILE} is not valid; using the defaults`);
  return ShellPreferences.parse({});
}
