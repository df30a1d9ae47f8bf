import { EventEmitter } from 'node:events';
import { beforeEach, describe, expect, it, vi } from 'vitest';

const app = Object.assign(new EventEmitter(), {
  isPackaged: false,
  getAppPath: () => '/opt/deputy',
  setBadgeCount: vi.fn<(count: number) => boolean>(() => true),
});
class Window {
  overlay: { icon: string; description: string } | null = null;
  isDestroyed = () => false;
  setOverlayIcon(image: { path: string } | null, description: string): void {
    this.overlay = image ? { icon: image.path, description } : null;
  }
}
const windows: Window[] = [];

vi.mock('electron', () => ({
  app,
  BrowserWindow: { getAllWindows: () => windows },
  nativeImage: { createFromPath: (path: string) => ({ path }) },
}));

const { pendingCountBadge } = await import('../../../electron/shell/badge');

beforeEach(() => {
  windows.length = 0;
  app.removeAllListeners();
  app.setBadgeCount.mockReset();
});

describe('the pending-approvals count', () => {
  it('is the app badge on macOS and Linux', () => {
    app.setBadgeCount.mockReturnValue(true);
    const show = pendingCountBadge('darwin');
    show(2);
    expect(app.setBadgeCount).toHaveBeenCalledWith(2);
  });

  it('says once, not on every change, that a Linux desktop has no badge', () => {
    app.setBadgeCount.mockReturnValue(false);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const show = pendingCountBadge('linux');
    show(1);
    show(2);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]?.[0]).toContain('tray menu counts pending approvals');
    warn.mockRestore();
  });

  it('is a taskbar overlay on Windows, on every window and on one opened later, and goes at zero', () => {
    const main = new Window();
    windows.push(main);
    const show = pendingCountBadge('win32');
    show(3);
    expect(main.overlay).toEqual({
      icon: '/opt/deputy/resources/tray/badge.png',
      description: '3 waiting for your approval',
    });
    const later = new Window();
    app.emit('browser-window-created', {}, later);
    expect(later.overlay?.description).toBe('3 waiting for your approval');
    show(0);
    expect(main.overlay).toBeNull();
    expect(app.setBadgeCount).not.toHaveBeenCalled();
  });
});
