import type { BrowserContext } from 'playwright-core';
import { FakeApp } from './app';
import { FakeBrowserWindow, type WindowRuntime } from './browser-window';
import {
  FakeGlobalShortcut,
  FakeIpcMain,
  FakeMenu,
  FakeNativeImage,
  FakeNativeTheme,
  FakeProtocol,
  FakeSession,
  FakeTray,
  fakeSafeStorage,
  notificationClass,
  type FakeNotification,
} from './recorders';

/** Everything one run of the app created or asked for, for the test to read and press. */
export interface ElectronRecords {
  runtime: WindowRuntime;
  app: FakeApp;
  ipcMain: FakeIpcMain;
  notifications: FakeNotification[];
  trays: FakeTray[];
  applicationMenu: FakeMenu | null;
  globalShortcut: FakeGlobalShortcut;
  nativeTheme: FakeNativeTheme;
  protocol: FakeProtocol;
  session: FakeSession;
  openedExternally: string[];
  openedPaths: string[];
  errorBoxes: { title: string; content: string }[];
}

export interface FakeElectronOptions {
  context: BrowserContext;
  appPath: string;
  userData: string;
}

/** A fresh stand-in `electron` module for one run of the app, and the records behind it. */
export function createFakeElectron(options: FakeElectronOptions): {
  exports: Record<string, unknown>;
  records: ElectronRecords;
} {
  const runtime = {
    context: options.context,
    created: [],
    open: new Set(),
    focused: null,
  } as unknown as WindowRuntime;
  const app = new FakeApp(options.appPath, options.userData, { all: () => [...runtime.open] });
  runtime.app = app;
  const notifications: FakeNotification[] = [];
  const trays: FakeTray[] = [];
  const records: ElectronRecords = {
    runtime,
    app,
    ipcMain: new FakeIpcMain(),
    notifications,
    trays,
    applicationMenu: null,
    globalShortcut: new FakeGlobalShortcut(),
    nativeTheme: new FakeNativeTheme(),
    protocol: new FakeProtocol(() => app.isReady()),
    session: new FakeSession(),
    openedExternally: [],
    openedPaths: [],
    errorBoxes: [],
  };

  class BrowserWindow extends FakeBrowserWindow {
    static getAllWindows = () => [...runtime.open];
    static getFocusedWindow = () => runtime.focused;
    constructor(windowOptions: Record<string, unknown>) {
      super(windowOptions, options.context.newPage(), runtime);
    }
  }

  class Tray extends FakeTray {
    constructor(image: FakeNativeImage) {
      super(image, trays);
    }
  }

  const exports: Record<string, unknown> = {
    app,
    BrowserWindow,
    Notification: notificationClass(notifications),
    Tray,
    Menu: {
      buildFromTemplate: FakeMenu.buildFromTemplate,
      setApplicationMenu: (menu: FakeMenu | null) => (records.applicationMenu = menu),
    },
    nativeImage: { createFromPath: (path: string) => new FakeNativeImage(path) },
    globalShortcut: records.globalShortcut,
    nativeTheme: records.nativeTheme,
    protocol: records.protocol,
    safeStorage: fakeSafeStorage,
    session: { defaultSession: records.session },
    shell: {
      openExternal: async (url: string) => {
        records.openedExternally.push(url);
      },
      openPath: async (path: string) => {
        records.openedPaths.push(path);
        return '';
      },
    },
    dialog: {
      showErrorBox: (title: string, content: string) => records.errorBoxes.push({ title, content }),
    },
    ipcMain: records.ipcMain,
    screen: {
      getCursorScreenPoint: () => ({ x: 2200, y: 300 }),
      // Two displays side by side: the quick prompt must open on the one with the pointer.
      getDisplayNearestPoint: (point: { x: number }) =>
        point.x >= 1920
          ? { workArea: { x: 1920, y: 0, width: 1440, height: 900 } }
          : { workArea: { x: 0, y: 0, width: 1920, height: 1080 } },
    },
  };
  return { exports, records };
}

/** The names the stand-in module exports; importing any other from `electron` fails to link, loudly. */
export const ELECTRON_EXPORTS = [
  'app',
  'BrowserWindow',
  'Notification',
  'Tray',
  'Menu',
  'nativeImage',
  'globalShortcut',
  'nativeTheme',
  'protocol',
  'safeStorage',
  'session',
  'shell',
  'dialog',
  'ipcMain',
  'screen',
] as const;
