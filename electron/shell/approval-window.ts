import { BrowserWindow } from 'electron';
import { rendererEntry, secureWebPreferences } from './windows';

/**
 * The renderer's compact approval card for one approval. The id goes into the hash only, encoded, so
 * whatever it contains cannot change which file or origin is loaded, and with it what IPC trusts.
 */
export function approvalUrl(approvalId: string): string {
  const url = rendererEntry();
  url.hash = `/approval/${encodeURIComponent(approvalId)}`;
  return url.href;
}

/** A small card that stays above other apps, so an approval can be decided without finding the chat window. */
export function createApprovalWindow(approvalId: string): BrowserWindow {
  const window = new BrowserWindow({
    width: 420,
    height: 560,
    minWidth: 360,
    minHeight: 420,
    maxWidth: 720,
    maxHeight: 900,
    title: 'Deputy: approval needed',
    alwaysOnTop: true,
    fullscreenable: false,
    maximizable: false,
    // Shown once painted, so the user never sees a blank white frame.
    show: false,
    webPreferences: secureWebPreferences(),
  });
  window.once('ready-to-show', () => window.show());
  window.loadURL(approvalUrl(approvalId)).catch((error: unknown) => {
    console.error('[approval-window] the approval card did not load', error);
  });
  return window;
}

/** The parts of a `BrowserWindow` the registry uses, so tests can hand it plain objects. */
export interface ApprovalWindow {
  isDestroyed(): boolean;
  isMinimized(): boolean;
  restore(): void;
  show(): void;
  focus(): void;
  close(): void;
  once(event: 'closed', listener: () => void): unknown;
}

export interface ApprovalWindows {
  /** Opens the card for this approval, or brings forward the one already open. */
  open(approvalId: string): void;
  /** Closes the card of every approval that is no longer pending (decided elsewhere, expired). */
  closeAllBut(pendingIds: ReadonlySet<string>): void;
  closeAll(): void;
}

/** At most one window per approval: a second click on its notification focuses the first. */
export function createApprovalWindows(
  createWindow: (approvalId: string) => ApprovalWindow = createApprovalWindow,
): ApprovalWindows {
  const windows = new Map<string, ApprovalWindow>();

  function close(approvalId: string): void {
    const window = windows.get(approvalId);
    windows.delete(approvalId);
    if (window && !window.isDestroyed()) window.close();
  }

  return {
    open(approvalId) {
      const existing = windows.get(approvalId);
      if (existing && !existing.isDestroyed()) {
        if (existing.isMinimized()) existing.restore();
        existing.show();
        existing.focus();
        return;
      }
      const window = createWindow(approvalId);
      windows.set(approvalId, window);
      // The card closes itself once decided; a later window for the same id must not be forgotten by it.
      window.once('closed', () => {
        if (windows.get(approvalId) === window) windows.delete(approvalId);
      });
    },

    closeAllBut(pendingIds) {
      for (const approvalId of [...windows.keys()]) if (!pendingIds.has(approvalId)) close(approvalId);
    },

    closeAll() {
      for (const approvalId of [...windows.keys()]) close(approvalId);
    },
  };
}
