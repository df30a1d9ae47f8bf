import { app, BrowserWindow, type WebPreferences } from 'electron';
import { join } from 'node:path';
import { APP_HOST, APP_ORIGIN, APP_SCHEME } from './app-protocol';
import type { WindowBounds } from './preferences';

/** The folder of the built renderer, which `app://deputy/` serves. */
export function rendererDir(): string {
  return join(app.getAppPath(), 'out', 'renderer');
}

/** Where the renderer's pages come from: the dev server while developing, the app protocol otherwise. */
export function rendererEntry(): URL {
  const devServerUrl = process.env.ELECTRON_RENDERER_URL;
  // Only an unpackaged app may follow this variable: in a shipped app it would let whoever sets the
  // environment point the window, and with it the trust IPC gives our pages, at any server.
  if (!app.isPackaged && devServerUrl) return new URL(devServerUrl);
  return new URL(`${APP_ORIGIN}/index.html`);
}

/**
 * Whether `url` is one of the app's own pages: on `app://deputy`, or on the dev server's origin. The IPC
 * sender check, the navigation guard and the CSP all ask this one question.
 */
export function isAppUrl(url: string): boolean {
  const target = URL.parse(url);
  if (!target) return false;
  const entry = rendererEntry();
  // WHATWG gives custom schemes the origin "null", so scheme and host are compared instead; a userinfo
  // part (app://x@deputy) is refused outright rather than reasoned about.
  if (entry.protocol === `${APP_SCHEME}:`) {
    return (
      target.protocol === entry.protocol && target.host === APP_HOST && !target.username && !target.password
    );
  }
  return target.origin === entry.origin;
}

/**
 * Every window of the app gets these. The page gets `window.deputy` and nothing else: no Node, no Electron,
 * no shared globals with the preload.
 */
export function secureWebPreferences(): WebPreferences {
  return {
    preload: join(app.getAppPath(), 'out', 'preload', 'preload.cjs'),
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    webSecurity: true,
    webviewTag: false,
  };
}

/**
 * Tracked rather than taken from `BrowserWindow.getAllWindows()`, which also lists approval windows:
 * the dock icon or a second launch must bring back the main window, not an approval card.
 */
let mainWindow: BrowserWindow | null = null;

/** Where the main window was and whether it was maximized, kept across restarts (shell preferences). */
export interface WindowStateStore {
  load(): { bounds?: WindowBounds; isMaximized: boolean };
  save(state: { bounds: WindowBounds; isMaximized: boolean }): void;
}

let windowState: WindowStateStore | null = null;

/** Call once before the first window: from then on the main window opens where it was left. */
export function useWindowState(store: WindowStateStore): void {
  windowState = store;
}

// The routes of the main window's page that the shell opens, in its address hash (the renderer's route.ts reads
// them). An id is encoded, so an id (already validated as a deep link) cannot change which file or origin is loaded.
const threadRoute = (threadId: string): string => `/thread/${encodeURIComponent(threadId)}`;
const CONNECTIONS_ROUTE = '/settings/connections';

/** The page of the main window, optionally at a route: one conversation, or Settings → Connections. */
function mainUrl(route?: string): string {
  const url = rendererEntry();
  if (route !== undefined) url.hash = route;
  return url.href;
}

export function createMainWindow(route?: string): BrowserWindow {
  const saved = windowState?.load();
  const window = new BrowserWindow({
    width: 1100,
    height: 760,
    ...saved?.bounds,
    minWidth: 720,
    minHeight: 480,
    title: 'Deputy',
    // Shown once painted, so the user never sees a blank white frame.
    show: false,
    webPreferences: secureWebPreferences(),
  });
  mainWindow = window;
  // Saved when closing, not on every move: the normal (unmaximized) bounds, so a restore lands right.
  window.on('close', () => {
    windowState?.save({ bounds: window.getNormalBounds(), isMaximized: window.isMaximized() });
  });
  window.on('closed', () => {
    if (mainWindow === window) mainWindow = null;
  });
  window.once('ready-to-show', () => {
    if (saved?.isMaximized) window.maximize();
    window.show();
  });
  window.loadURL(mainUrl(route)).catch((error: unknown) => {
    console.error('[windows] the renderer did not load', error);
  });
  return window;
}

/**
 * The audit viewer's "Back to Deputy": from the viewer's own window, the main window comes forward as it was;
 * from the main window itself (the viewer opened in it from a tool card), it goes back to the chat.
 */
export function backToMain(senderId: number): void {
  const window = mainWindow;
  if (!window || window.isDestroyed() || window.webContents.id !== senderId) {
    showMainWindow();
    return;
  }
  const url = rendererEntry();
  url.hash = '/';
  window.loadURL(url.href).catch((error: unknown) => {
    console.error('[windows] could not go back to the chat', error);
  });
}

/** Brings the app's window forward, creating it if the user closed it (macOS keeps the app running). */
function showMainAt(route?: string): void {
  const window = mainWindow;
  if (!window || window.isDestroyed()) {
    createMainWindow(route);
    return;
  }
  // Only the hash changes: the page stays loaded and goes there.
  if (route !== undefined) {
    window.loadURL(mainUrl(route)).catch((error: unknown) => {
      console.error('[windows] could not open that place in the main window', error);
    });
  }
  if (window.isMinimized()) window.restore();
  window.show();
  window.focus();
}

/** Brings the main window forward, optionally on one conversation. */
export function showMainWindow(threadId?: string): void {
  showMainAt(threadId === undefined ? undefined : threadRoute(threadId));
}

/** Brings the main window forward at Settings → Connections, on the Gemini card (the quick prompt's way to a key). */
export function showConnections(): void {
  showMainAt(CONNECTIONS_ROUTE);
}
