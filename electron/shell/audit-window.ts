import { BrowserWindow } from 'electron';
import { isAppUrl, rendererEntry, secureWebPreferences } from './windows';

/** The audit viewer's address: the app's own page at `#/audit`. */
export function auditUrl(): string {
  const url = rendererEntry();
  url.hash = '/audit';
  return url.href;
}

/**
 * Whether a page asked to open the audit viewer: the app's own page at `#/audit`, and nothing else. Checked
 * on the parsed URL, so a foreign page with the same hash, or a path that merely contains it, never passes.
 */
export function isAuditViewerUrl(url: string): boolean {
  const target = URL.parse(url);
  if (!target || !isAppUrl(url)) return false;
  const entry = rendererEntry();
  const isEntryPage =
    target.protocol === entry.protocol && target.host === entry.host && target.pathname === entry.pathname;
  return isEntryPage && /^#\/audit\/?$/.test(target.hash);
}

/** One audit window: a second request brings the first forward. */
let auditWindow: BrowserWindow | null = null;

/** The local audit viewer in its own window (DESIGN.md §1's fourth surface), hardened like every window. */
export function showAuditWindow(): BrowserWindow {
  if (auditWindow && !auditWindow.isDestroyed()) {
    if (auditWindow.isMinimized()) auditWindow.restore();
    auditWindow.focus();
    return auditWindow;
  }
  const window = new BrowserWindow({
    width: 1280,
    height: 820,
    minWidth: 420,
    minHeight: 480,
    title: 'Deputy: audit trail',
    // Shown once painted, so the user never sees a blank white frame.
    show: false,
    webPreferences: secureWebPreferences(),
  });
  auditWindow = window;
  window.on('closed', () => {
    if (auditWindow === window) auditWindow = null;
  });
  window.once('ready-to-show', () => window.show());
  window.loadURL(auditUrl()).catch((error: unknown) => {
    console.error('[audit-window] the audit viewer did not load', error);
  });
  return window;
}
