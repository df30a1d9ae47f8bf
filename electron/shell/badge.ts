import { app, BrowserWindow, nativeImage } from 'electron';
import { join } from 'node:path';

/**
 * The count of pending approvals where the OS shows one: the dock badge on macOS, the launcher badge on Linux
 * desktops that have one (Unity, KDE, some docks; app.setBadgeCount says false elsewhere), and on Windows,
 * which has no app badge, an overlay dot on the taskbar button with the count in its description.
 */
export function pendingCountBadge(platform: NodeJS.Platform = process.platform): (count: number) => void {
  if (platform !== 'win32') {
    let isUnsupportedLogged = false;
    return (count) => {
      if (app.setBadgeCount(count) || isUnsupportedLogged) return;
      // Not an error: this desktop has no badge. The tray's "Pending approvals (N)" still counts them.
      isUnsupportedLogged = true;
      console.warn('[badge] this desktop shows no app badge; the tray menu counts pending approvals');
    };
  }
  let current = 0;
  const overlay = (window: BrowserWindow): void => {
    if (window.isDestroyed()) return;
    if (current === 0) window.setOverlayIcon(null, '');
    else window.setOverlayIcon(overlayImage(), `${current} waiting for your approval`);
  };
  // A window opened later (the main window after it was closed) shows the count too.
  app.on('browser-window-created', (_event, window) => overlay(window));
  return (count) => {
    current = count;
    for (const window of BrowserWindow.getAllWindows()) overlay(window);
  };
}

function overlayImage(): Electron.NativeImage {
  const folder = app.isPackaged
    ? join(process.resourcesPath, 'tray')
    : join(app.getAppPath(), 'resources', 'tray');
  return nativeImage.createFromPath(join(folder, 'badge.png'));
}
