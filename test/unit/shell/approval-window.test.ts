import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeBrowserWindow } from './fake-electron';

const electron = vi.hoisted(() => ({
  app: { isPackaged: false, getAppPath: () => '/opt/deputy' },
}));

vi.mock('electron', async () => ({
  app: electron.app,
  BrowserWindow: (await import('./fake-electron')).FakeBrowserWindow,
  ipcMain: { handle: () => undefined, removeHandler: () => undefined },
}));

const { approvalUrl, createApprovalWindow, createApprovalWindows } =
  await import('../../../electron/shell/approval-window');
const { createMainWindow, isAppUrl } = await import('../../../electron/shell/windows');
const { isAppSender } = await import('../../../electron/shell/ipc');

const DEV_SERVER = 'http://localhost:5173';
const BUILT_PAGE = 'app://deputy/index.html';

beforeEach(() => {
  FakeBrowserWindow.reset();
  electron.app.isPackaged = false;
  vi.stubEnv('ELECTRON_RENDERER_URL', undefined);
});

afterEach(() => {
  vi.unstubAllEnvs();
});

function onlyWindow(): FakeBrowserWindow {
  const [window, ...others] = FakeBrowserWindow.created;
  if (!window || others.length > 0)
    throw new Error(`expected one window, got ${FakeBrowserWindow.created.length}`);
  return window;
}

/** What Electron hands the IPC handler when this window's top-level page calls `window.deputy`. */
const ipcEventFrom = (url: string) => ({
  senderFrame: { url, parent: null },
  sender: {
    id: 1,
    send: () => undefined,
    isDestroyed: () => false,
    once: () => undefined,
    on: () => undefined,
  },
});

describe('createApprovalWindow', () => {
  it('has the main window’s isolation: context isolation, sandbox, no Node, the same preload', () => {
    createMainWindow();
    createApprovalWindow('appr-1');
    const [main, approval] = FakeBrowserWindow.created;
    expect(approval?.options.webPreferences).toEqual({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      webviewTag: false,
      preload: expect.stringMatching(/[\\/]out[\\/]preload[\\/]preload\.cjs$/),
    });
    expect(approval?.options.webPreferences).toEqual(main?.options.webPreferences);
  });

  it('is a small card that stays on top, with bounds on resizing', () => {
    createApprovalWindow('appr-1');
    expect(onlyWindow().options).toMatchObject({
      width: 420,
      height: 560,
      alwaysOnTop: true,
      fullscreenable: false,
      maximizable: false,
      minWidth: expect.any(Number),
      minHeight: expect.any(Number),
      maxWidth: expect.any(Number),
      maxHeight: expect.any(Number),
    });
  });

  it('loads the approval route of the built renderer, and shows itself once ready', () => {
    createApprovalWindow('appr-1');
    const window = onlyWindow();
    expect(window.loaded).toEqual([`${BUILT_PAGE}#/approval/appr-1`]);
    expect(window.options.show).toBe(false);
    window.emit('ready-to-show');
    expect(window.isShown).toBe(true);
  });

  it('loads the dev server’s approval route while developing', () => {
    vi.stubEnv('ELECTRON_RENDERER_URL', DEV_SERVER);
    createApprovalWindow('appr-1');
    expect(onlyWindow().loaded).toEqual([`${DEV_SERVER}/#/approval/appr-1`]);
  });
});

describe('approvalUrl', () => {
  it.each(['appr-1', '../../../etc/passwd', 'a?b#c', 'https://evil.example/', '%2e%2e'])(
    'keeps the id %s inside the hash of our own page',
    (approvalId) => {
      const url = new URL(approvalUrl(approvalId));
      expect(`${url.protocol}//${url.host}${url.pathname}`).toBe(BUILT_PAGE);
      expect(url.search).toBe('');
      expect(decodeURIComponent(url.hash.slice('#/approval/'.length))).toBe(approvalId);
    },
  );

  it.each([
    ['the built app', undefined],
    ['the dev server', DEV_SERVER],
  ])('is trusted by the IPC sender check in %s', (_name, devServer) => {
    vi.stubEnv('ELECTRON_RENDERER_URL', devServer);
    const url = approvalUrl('appr-1');
    expect(isAppUrl(url)).toBe(true);
    expect(isAppSender(ipcEventFrom(url))).toBe(true);
  });

  it('does not make a foreign page with the same route trusted', () => {
    for (const url of [
      'https://evil.example/#/approval/appr-1',
      'file:///home/ana/Downloads/index.html#/approval/appr-1',
      `${DEV_SERVER}/#/approval/appr-1`,
    ]) {
      expect(isAppSender(ipcEventFrom(url))).toBe(false);
    }
    const framed = {
      ...ipcEventFrom(approvalUrl('appr-1')),
      senderFrame: { url: approvalUrl('appr-1'), parent: {} },
    };
    expect(isAppSender(framed)).toBe(false);
  });
});

describe('createApprovalWindows', () => {
  it('opens one window per approval, and focuses it when opened again', () => {
    const windows = createApprovalWindows();
    windows.open('appr-1');
    const window = onlyWindow();
    window.minimized = true;
    windows.open('appr-1');
    expect(onlyWindow()).toBe(window);
    expect(window.minimized).toBe(false);
    expect(window.isFocused).toBe(true);
    windows.open('appr-2');
    expect(FakeBrowserWindow.created.map((each) => each.loaded)).toEqual([
      [`${BUILT_PAGE}#/approval/appr-1`],
      [`${BUILT_PAGE}#/approval/appr-2`],
    ]);
  });

  it('closes the windows of approvals that are no longer pending, and only those', () => {
    const windows = createApprovalWindows();
    windows.open('appr-1');
    windows.open('appr-2');
    windows.closeAllBut(new Set(['appr-2']));
    expect(FakeBrowserWindow.created.map((window) => window.destroyed)).toEqual([true, false]);
    windows.closeAll();
    expect(FakeBrowserWindow.created.map((window) => window.destroyed)).toEqual([true, true]);
  });

  it('opens a fresh window after the card closed itself', () => {
    const windows = createApprovalWindows();
    windows.open('appr-1');
    onlyWindow().close(); // the renderer's window.close() once the user decided
    windows.open('appr-1');
    expect(FakeBrowserWindow.created.map((window) => window.destroyed)).toEqual([true, false]);
  });

  it('does not close a window twice', () => {
    const windows = createApprovalWindows();
    windows.open('appr-1');
    const window = onlyWindow();
    const close = vi.spyOn(window, 'close');
    window.close();
    windows.closeAllBut(new Set());
    windows.closeAll();
    expect(close).toHaveBeenCalledTimes(1);
  });
});
