import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { PAGE_ORIGIN, toAppUrl } from './app-url';
import { provideElectron } from './electron-hook';
import type { FakeBrowserWindow } from './electron/browser-window';
import { createFakeElectron, type ElectronRecords } from './electron/index';
import type { FakeNotification } from './electron/recorders';
import { INPUT_BINDING, INVOKE_BINDING, OPEN_BINDING, pageBridgeScript } from './electron/page-bridge';
import { preventable } from './electron/app';

export const REPO_ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..');
const MAIN_BUNDLE = join(REPO_ROOT, 'out', 'main', 'main.js');
const PRELOAD_BUNDLE = join(REPO_ROOT, 'out', 'preload', 'preload.cjs');
const RENDERER_PAGE = join(REPO_ROOT, 'out', 'renderer', 'index.html');

/** Dynamic import by Node itself, not by the test runner: the bundle is run as built, not transformed. */
const nativeImport = createRequire(import.meta.url)('./native-import.cjs') as (
  url: string,
) => Promise<unknown>;

function loadNativeDatabase(): void {
  const Database = createRequire(import.meta.url)('better-sqlite3') as new (path: string) => {
    close(): void;
  };
  new Database(':memory:').close();
}

export function assertBuilt(): void {
  const missing = [MAIN_BUNDLE, PRELOAD_BUNDLE, RENDERER_PAGE].filter((file) => !existsSync(file));
  if (missing.length > 0) {
    throw new Error(
      `Not built: ${missing.join(', ')}. Run "npm run build" (npm run test:e2e does it first).`,
    );
  }
}

export interface LaunchOptions {
  browser: Browser;
  dataDir: string;
  env?: Record<string, string>;
  colorScheme?: 'light' | 'dark';
  /** Global keys another app holds, so registering them fails. */
  takenShortcuts?: readonly string[];
  /** Runs the app as if on this OS (process.platform), e.g. to see macOS notification buttons on Linux. */
  platform?: NodeJS.Platform;
  /** A `deputy://` link that launches the app: an `open-url` before `ready` on macOS, in argv elsewhere. */
  launchedByLink?: string;
}

export interface DeputyApp extends ElectronRecords {
  context: BrowserContext;
  readonly hasQuit: boolean;
  /** Every request a page made to anything but app:// (refused: the app's pages have no network of their own). */
  blockedRequests: string[];
  /** Windows open now, in the order they were created. */
  windows(): FakeBrowserWindow[];
  /** Waits for an open window whose page URL matches (`#/quick`, `#/approval/…`, or the main page). */
  waitForWindow(match: (url: string) => boolean, what: string): Promise<FakeBrowserWindow>;
  mainWindow(): Promise<FakeBrowserWindow>;
  waitForNotification(
    match: (notification: FakeNotification) => boolean,
    what: string,
  ): Promise<FakeNotification>;
  /** What the OS does with a `deputy://` link while Deputy runs (an event on macOS, a second instance elsewhere). */
  openLink(url: string): void;
  quit(): Promise<number>;
}

let runCount = 0;

export async function waitUntil<T>(
  probe: () => T | undefined | null | false,
  what: string,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolveWait) => setTimeout(resolveWait, 50));
  }
}

/** Starts the BUILT app (out/main, out/preload, out/renderer) with a stand-in `electron` and Chromium windows. */
export async function launchDeputy(options: LaunchOptions): Promise<DeputyApp> {
  assertBuilt();
  // Electron keeps a page's web storage in the data folder: a quit and a launch on the same folder find it again.
  const storagePath = join(options.dataDir, 'harness-web-storage.json');
  const context = await options.browser.newContext({
    colorScheme: options.colorScheme ?? 'light',
    serviceWorkers: 'block',
    ...(existsSync(storagePath) && { storageState: storagePath }),
  });
  const { exports, records } = createFakeElectron({ context, appPath: REPO_ROOT, userData: options.dataDir });
  for (const key of options.takenShortcuts ?? []) records.globalShortcut.taken.add(key);
  const { runtime, ipcMain, protocol } = records;
  const windowOf = (page: Page) => runtime.created.find((window) => window.webContents.pageOrNull === page);

  await context.exposeBinding(INVOKE_BINDING, async (source, channel: string, args: unknown[]) => {
    const window = windowOf(source.page);
    if (!window) throw new Error('IPC from a page that belongs to no window');
    // A closed window's page may still be closing here; in Electron it can send nothing more.
    if (window.isDestroyed()) throw new Error('Object has been destroyed');
    const handler = ipcMain.handlers.get(channel);
    if (!handler) throw new Error(`No handler registered for '${channel}'`);
    const frame = source.frame;
    // What Electron gives a handler: the window's webContents, and the frame that sent, by its real URL.
    const event = {
      sender: window.webContents,
      senderFrame: { url: toAppUrl(frame.url()), parent: frame.parentFrame() ? {} : null },
    };
    return handler(event, ...args);
  });
  await context.exposeBinding(INPUT_BINDING, (source, input: { type: string; key: string }) => {
    windowOf(source.page)?.webContents.emit('before-input-event', preventable(), input);
  });
  await context.exposeBinding(OPEN_BINDING, (source, url: string) => {
    windowOf(source.page)?.webContents.windowOpenHandler?.({ url: toAppUrl(url) });
  });
  await context.addInitScript({ content: pageBridgeScript(readFileSync(PRELOAD_BUNDLE, 'utf8')) });

  const blockedRequests: string[] = [];
  await context.route('**/*', async (route) => {
    const request = route.request();
    const url = request.url();
    if (request.isNavigationRequest() && request.frame().parentFrame() === null) {
      const window = windowOf(request.frame().page());
      // A 204 is the one answer on which Chromium stays on the current page, as a cancelled will-navigate does.
      if (window && !window.webContents.allowNavigation(url)) return route.fulfill({ status: 204 });
    }
    const handler = protocol.handlers.get('app');
    if (url.startsWith(`${PAGE_ORIGIN}/`) && handler) {
      const response = await handler(new Request(toAppUrl(url), { method: request.method() }));
      return route.fulfill({
        status: response.status,
        headers: Object.fromEntries(response.headers),
        body: Buffer.from(await response.arrayBuffer()),
      });
    }
    // The app's pages reach nothing but app:// (and IPC); whatever else they ask for is refused and noted.
    blockedRequests.push(url);
    return route.abort('blockedbyclient');
  });
  // target=_blank and window.open: Electron asks the window-open handler, and here nothing else opens.
  context.on('page', (popup) => {
    void popup.opener().then((opener) => {
      if (!opener) return;
      const window = windowOf(opener);
      window?.webContents.windowOpenHandler?.({ url: toAppUrl(popup.url()) });
      void popup.close();
    });
  });

  const realPlatform = process.platform;
  // better-sqlite3 picks its native binary by process.platform when first used: loaded now, for the real one.
  if (options.platform) loadNativeDatabase();
  if (options.platform)
    Object.defineProperty(process, 'platform', { value: options.platform, configurable: true });
  const savedEnv = { ...process.env };
  Object.assign(process.env, options.env);
  const guardsBefore = {
    exception: process.listeners('uncaughtException'),
    rejection: process.listeners('unhandledRejection'),
  };
  const argvBefore = process.argv;
  // Windows and Linux start the app with the link on its command line.
  if (options.launchedByLink && options.platform !== 'darwin')
    process.argv = [...process.argv, options.launchedByLink];
  provideElectron(exports);
  runCount += 1;
  await nativeImport(`${pathToFileURL(MAIN_BUNDLE).href}?run=${runCount}`);
  const link = options.launchedByLink;
  records.app.markReady(() => {
    if (link && process.platform === 'darwin') records.app.emit('open-url', preventable(), link);
  });

  const openWindows = () => [...runtime.open];
  const waitForWindow = async (match: (url: string) => boolean, what: string) => {
    const window = await waitUntil(
      () =>
        openWindows().find(
          (candidate) => candidate.webContents.getURL() && match(candidate.webContents.getURL()),
        ),
      what,
    );
    return window;
  };

  let hasQuit = false;
  const app: DeputyApp = {
    ...records,
    context,
    blockedRequests,
    get hasQuit() {
      return hasQuit;
    },
    windows: openWindows,
    waitForWindow,
    async mainWindow() {
      const main = await waitForWindow(
        (url) => !url.includes('#/quick') && !url.includes('#/approval/'),
        'the main window',
      );
      // Shown once painted (ready-to-show): until then it would take the focus from whatever opens next.
      await waitUntil(() => main.isVisible(), 'the main window to show');
      return main;
    },
    waitForNotification: (match, what) => waitUntil(() => records.notifications.find(match), what),
    openLink(url) {
      // macOS hands the running app the link as an event; Windows and Linux start a second instance with it.
      if (process.platform === 'darwin') records.app.emit('open-url', preventable(), url);
      else records.app.emit('second-instance', preventable(), [process.execPath, REPO_ROOT, url], REPO_ROOT);
    },
    async quit() {
      hasQuit = true;
      // Read while the windows are still open: what their pages stored is what the next launch finds.
      await context.storageState({ path: storagePath });
      records.app.quit();
      const code = await records.app.exited;
      // The app's process guard is for a real process; the test runner's own handlers must stay in charge.
      for (const listener of process.listeners('uncaughtException'))
        if (!guardsBefore.exception.includes(listener)) process.off('uncaughtException', listener);
      for (const listener of process.listeners('unhandledRejection'))
        if (!guardsBefore.rejection.includes(listener)) process.off('unhandledRejection', listener);
      for (const key of Object.keys(options.env ?? {})) Reflect.deleteProperty(process.env, key);
      Object.assign(process.env, savedEnv);
      Object.defineProperty(process, 'platform', { value: realPlatform, configurable: true });
      process.argv = argvBefore;
      await context.close();
      return code;
    },
  };
  return app;
}
