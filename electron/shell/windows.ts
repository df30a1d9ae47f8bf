import { app, BrowserWindow, type WebPreferences } from 'electron';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** Where the renderer's pages come from: the dev server while developing, the built files otherwise. */
export function rendererEntry(): URL {
  const devServerUrl = process.env.ELECTRON_RENDERER_URL;
  // Only an unpackaged app may follow this variable: in a shipped app it would let whoever sets the
  // environment point the window, and with it the trust IPC gives our pages, at any server.
  if (!app.isPackaged && devServerUrl) return new URL(devServerUrl);
  return pathToFileURL(join(app.getAppPath(), 'out', 'renderer', 'index.html'));
}

/**
 * Whether `url` is one of the app's own pages or files: under the built renderer folder, or on the dev
 * server's origin. The IPC sender check, the navigation guard and the CSP all ask this one question.
 */
export function isAppUrl(url: string): boolean {
  const target = URL.parse(url);
  if (!target) return false;
  const entry = rendererEntry();
  if (entry.protocol !== 'file:') return target.origin === entry.origin;
  // file: URLs have no origin to compare ("null"), so the built folder is the boundary. URL parsing
  // has already resolved any `..` segments, so a path cannot climb out of the folder.
  const folder = entry.pathname.slice(0, entry.pathname.lastIndexOf('/') + 1);
  return target.protocol === 'file:' && target.host === entry.host && target.pathname.startsWith(folder);
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

export function createMainWindow(): BrowserWindow {
  const window = new BrowserWindow({
    width: 1100,
    height: 760,
    minWidth: 720,
    minHeight: 480,
    title: 'Deputy',
    // Shown once painted, so the user never sees a blank white frame.
    show: false,
    webPreferences: secureWebPreferences(),
  });
  mainWindow = window;
  window.on('closed', () => {
    if (mainWindow === window) mainWindow = null;
  });
  window.once('ready-to-show', () => window.show());
  window.loadURL(rendererEntry().href).catch((error: unknown) => {
    console.error('[windows] the renderer did not load', error);
  });
  return window;
}

/** Brings the app's window forward, creating it if the user closed it (macOS keeps the app running). */
export function showMainWindow(): void {
  const window = mainWindow;
  if (!window || window.isDestroyed()) {
    createMainWindow();
    return;
  }
  if (window.isMinimized()) window.restore();
  window.focus();
}
