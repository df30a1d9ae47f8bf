import { EventEmitter } from 'node:events';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeBrowserWindow } from './fake-electron';

type Handler = (...args: unknown[]) => unknown;

const electron = vi.hoisted(() => {
  const appListeners = new Map<string, Handler>();
  const session = {
    onHeadersReceived: undefined as Handler | undefined,
    permissionRequest: undefined as Handler | undefined,
    permissionCheck: undefined as Handler | undefined,
    devicePermission: undefined as Handler | undefined,
    deviceChoosers: new Map<string, Handler>(),
  };
  return {
    appListeners,
    session,
    app: {
      isPackaged: false,
      getAppPath: () => '/opt/deputy',
      on: (event: string, listener: Handler) => appListeners.set(event, listener),
    },
    defaultSession: {
      webRequest: { onHeadersReceived: (listener: Handler) => (session.onHeadersReceived = listener) },
      setPermissionRequestHandler: (handler: Handler) => (session.permissionRequest = handler),
      setPermissionCheckHandler: (handler: Handler) => (session.permissionCheck = handler),
      setDevicePermissionHandler: (handler: Handler) => (session.devicePermission = handler),
      on: (event: string, listener: Handler) => session.deviceChoosers.set(event, listener),
    },
    shell: { openExternal: async (_url: string) => undefined },
  };
});

vi.mock('electron', async () => ({
  app: electron.app,
  BrowserWindow: (await import('./fake-electron')).FakeBrowserWindow,
  session: { defaultSession: electron.defaultSession },
  shell: electron.shell,
}));

const { createMainWindow, showConnections, showMainWindow } = await import('../../../electron/shell/windows');
const { createApprovalWindow } = await import('../../../electron/shell/approval-window');
const { contentSecurityPolicy, setupSecurity } = await import('../../../electron/shell/security');

const DEV_SERVER = 'http://localhost:5173';
const BUILT_PAGE = 'app://deputy/index.html';

beforeEach(() => {
  FakeBrowserWindow.reset();
  electron.app.isPackaged = false;
  vi.stubEnv('ELECTRON_RENDERER_URL', undefined);
});

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

function onlyWindow() {
  const [window, ...others] = FakeBrowserWindow.created;
  if (!window || others.length > 0)
    throw new Error(`expected one window, got ${FakeBrowserWindow.created.length}`);
  return window;
}

describe('createMainWindow', () => {
  it('isolates the page: context isolation, sandbox, no Node, web security, the bundled preload', () => {
    createMainWindow();
    expect(onlyWindow().options.webPreferences).toEqual({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      webviewTag: false,
      preload: expect.stringMatching(/[\\/]out[\\/]preload[\\/]preload\.cjs$/),
    });
  });

  it('loads the built renderer, and shows the window only once it is ready', () => {
    createMainWindow();
    const window = onlyWindow();
    expect(window.loaded).toEqual([BUILT_PAGE]);
    expect(window.options.show).toBe(false);
    window.emit('ready-to-show');
    expect(window.isShown).toBe(true);
  });

  it('loads the dev server while developing, but never in a packaged app', () => {
    vi.stubEnv('ELECTRON_RENDERER_URL', DEV_SERVER);
    createMainWindow();
    electron.app.isPackaged = true;
    createMainWindow();
    expect(FakeBrowserWindow.created.map((window) => window.loaded)).toEqual([
      [`${DEV_SERVER}/`],
      [BUILT_PAGE],
    ]);
  });

  it('showMainWindow brings back the existing window, or opens one when there is none', () => {
    showMainWindow();
    const window = onlyWindow();
    window.minimized = true;
    showMainWindow();
    expect(FakeBrowserWindow.created).toHaveLength(1);
    expect(window.minimized).toBe(false);
    expect(window.isFocused).toBe(true);
  });

  it('showMainWindow brings back the main window, not an approval window opened after it', () => {
    createMainWindow();
    createApprovalWindow('appr-1');
    showMainWindow();
    const [main, approval, ...others] = FakeBrowserWindow.created;
    expect(others).toEqual([]);
    expect(main?.isFocused).toBe(true);
    expect(approval?.isFocused).toBe(false);
  });

  it('showConnections brings the main window forward at Settings → Connections, or opens one there', () => {
    showConnections();
    const opened = onlyWindow();
    expect(opened.loaded).toEqual([`${BUILT_PAGE}#/settings/connections`]);
    opened.minimized = true;
    showConnections();
    // The same window, only its hash changed: the page stays loaded.
    expect(FakeBrowserWindow.created).toHaveLength(1);
    expect(opened.loaded).toEqual([
      `${BUILT_PAGE}#/settings/connections`,
      `${BUILT_PAGE}#/settings/connections`,
    ]);
    expect(opened.minimized).toBe(false);
    expect(opened.isFocused).toBe(true);
  });

  it('showMainWindow opens a new main window once the user closed it, even with an approval window open', () => {
    createMainWindow().close();
    createApprovalWindow('appr-1');
    showMainWindow();
    const [, approval, reopened] = FakeBrowserWindow.created;
    expect(FakeBrowserWindow.created).toHaveLength(3);
    expect(approval?.isFocused).toBe(false);
    expect(reopened?.loaded).toEqual([BUILT_PAGE]);
  });
});

class FakeWebContents extends EventEmitter {
  windowOpenHandler: ((details: { url: string }) => { action: string }) | undefined;

  setWindowOpenHandler(handler: (details: { url: string }) => { action: string }) {
    this.windowOpenHandler = handler;
  }

  openWindow(url: string) {
    if (!this.windowOpenHandler) throw new Error('no window open handler');
    return this.windowOpenHandler({ url });
  }
}

function hardenedContents(): FakeWebContents {
  setupSecurity();
  const created = electron.appListeners.get('web-contents-created');
  if (!created) throw new Error('setupSecurity does not watch new webContents');
  const contents = new FakeWebContents();
  created({}, contents);
  return contents;
}

function navigationEvent(url: string) {
  return { url, preventDefault: vi.fn() };
}

describe('setupSecurity', () => {
  it('denies every window.open, handing https links to the system browser', () => {
    const openExternal = vi.spyOn(electron.shell, 'openExternal');
    const contents = hardenedContents();
    const urls = [
      'https://example.com/docs',
      'http://example.com',
      'file:///etc/passwd',
      'javascript:alert(1)',
    ];
    for (const url of urls) expect(contents.openWindow(url)).toEqual({ action: 'deny' });
    expect(openExternal.mock.calls).toEqual([['https://example.com/docs']]);
  });

  it('opens the audit viewer in its own hardened window for the app’s own #/audit link, and only that', () => {
    const openExternal = vi.spyOn(electron.shell, 'openExternal');
    const contents = hardenedContents();
    expect(contents.openWindow(`${BUILT_PAGE}#/audit`)).toEqual({ action: 'deny' });
    const viewer = FakeBrowserWindow.created.at(-1);
    expect(FakeBrowserWindow.created).toHaveLength(1);
    expect(viewer?.loaded).toEqual([`${BUILT_PAGE}#/audit`]);
    expect(viewer?.options.webPreferences).toMatchObject({ contextIsolation: true, sandbox: true });
    // A second request brings the same window forward.
    contents.openWindow(`${BUILT_PAGE}#/audit`);
    expect(FakeBrowserWindow.created).toHaveLength(1);
    for (const url of [
      'https://evil.example/#/audit',
      'file:///etc/passwd#/audit',
      `${BUILT_PAGE}#/audit/../approval/x`,
      `${BUILT_PAGE}#/auditx`,
    ]) {
      expect(contents.openWindow(url)).toEqual({ action: 'deny' });
    }
    expect(FakeBrowserWindow.created).toHaveLength(1);
    expect(openExternal.mock.calls.map(([url]) => url)).toEqual(['https://evil.example/#/audit']);
  });

  it('opens sign-in pages on https or this machine’s loopback only, through the one checked function', async () => {
    const { isSafeExternalUrl, openExternal } = await import('../../../electron/shell/external');
    const opened = vi.spyOn(electron.shell, 'openExternal');
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const cases = {
      'https://accounts.google.com/o/oauth2/v2/auth?x=1': true,
      'http://127.0.0.1:53124/callback': true,
      'http://localhost:8080/oauth': true,
      'http://evil.example/oauth': false,
      'https://user:pass@example.com/': false,
      'file:///etc/passwd': false,
      'deputy://settings': false,
      'not a url': false,
    };
    for (const [url, allowed] of Object.entries(cases)) {
      expect(await openExternal(url, 'sign-in')).toBe(allowed);
    }
    expect(opened.mock.calls.map(([url]) => url)).toEqual(
      Object.entries(cases)
        .filter(([, allowed]) => allowed)
        .map(([url]) => url),
    );
    // A link on a page never opens a loopback page, only https.
    expect(isSafeExternalUrl('http://127.0.0.1:4747/', 'link')).toBe(false);
  });

  it('denies every device (USB, HID, serial) and cancels every device chooser', () => {
    setupSecurity();
    expect(electron.session.devicePermission?.({ deviceType: 'usb' })).toBe(false);
    for (const name of ['select-hid-device', 'select-serial-port', 'select-usb-device']) {
      const chooser = electron.session.deviceChoosers.get(name);
      if (!chooser) throw new Error(`no ${name} listener`);
      const event = { preventDefault: vi.fn() };
      const callback = vi.fn();
      if (name === 'select-serial-port') chooser(event, [], {}, callback);
      else chooser(event, {}, callback);
      expect(event.preventDefault).toHaveBeenCalled();
      expect(callback.mock.calls[0]?.[0] ?? '').toBe('');
    }
  });

  it.each(['will-navigate', 'will-frame-navigate', 'will-redirect'])(
    '%s: blocks foreign pages, allows our own',
    (eventName) => {
      const contents = hardenedContents();
      const foreign = ['https://evil.example/', 'file:///etc/passwd', `${DEV_SERVER}/`].map(navigationEvent);
      const own = [BUILT_PAGE, 'app://deputy/index.html#/settings'].map(navigationEvent);
      for (const event of [...foreign, ...own]) contents.emit(eventName, event);
      expect(foreign.map((event) => event.preventDefault.mock.calls.length)).toEqual([1, 1, 1]);
      expect(own.map((event) => event.preventDefault.mock.calls.length)).toEqual([0, 0]);
    },
  );

  it('lets the dev server navigate while developing', () => {
    vi.stubEnv('ELECTRON_RENDERER_URL', DEV_SERVER);
    const contents = hardenedContents();
    const own = navigationEvent(`${DEV_SERVER}/settings`);
    const foreign = navigationEvent('http://localhost:8080/');
    contents.emit('will-navigate', own);
    contents.emit('will-navigate', foreign);
    expect(own.preventDefault).not.toHaveBeenCalled();
    expect(foreign.preventDefault).toHaveBeenCalled();
  });

  it('cancels every Web Bluetooth chooser instead of letting the first device be picked', () => {
    const contents = hardenedContents();
    const event = { preventDefault: vi.fn() };
    const callback = vi.fn();
    contents.emit('select-bluetooth-device', event, [{ deviceId: 'd1' }], callback);
    expect(event.preventDefault).toHaveBeenCalled();
    expect(callback).toHaveBeenCalledWith('');
  });

  it('refuses to attach a <webview>', () => {
    const contents = hardenedContents();
    const event = { preventDefault: vi.fn() };
    contents.emit('will-attach-webview', event, {}, {});
    expect(event.preventDefault).toHaveBeenCalled();
  });

  it('denies every permission request and check', () => {
    setupSecurity();
    const grants: boolean[] = [];
    for (const permission of ['media', 'geolocation', 'notifications', 'clipboard-read']) {
      electron.session.permissionRequest?.({}, permission, (granted: boolean) => grants.push(granted), {});
    }
    expect(grants).toEqual([false, false, false, false]);
    expect(electron.session.permissionCheck?.({}, 'media', 'file://', {})).toBe(false);
  });

  function headersFor(url: string, responseHeaders: Record<string, string[]> = {}) {
    setupSecurity();
    let answer: unknown;
    electron.session.onHeadersReceived?.(
      { url, responseHeaders },
      (response: unknown) => (answer = response),
    );
    return answer;
  }

  it('puts the strict CSP on our own responses, replacing any other', () => {
    const answer = headersFor(BUILT_PAGE, { 'content-security-policy': ['default-src *'], 'X-Other': ['1'] });
    expect(answer).toEqual({
      responseHeaders: { 'X-Other': ['1'], 'Content-Security-Policy': [contentSecurityPolicy()] },
    });
    expect(contentSecurityPolicy()).toBe(
      "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
        "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'",
    );
  });

  it('leaves other responses alone', () => {
    expect(headersFor('https://example.com/', { 'X-Other': ['1'] })).toEqual({});
  });

  it("while developing, allows the dev server's HMR socket and inline preamble", () => {
    vi.stubEnv('ELECTRON_RENDERER_URL', DEV_SERVER);
    const answer = headersFor(`${DEV_SERVER}/`);
    const policy = contentSecurityPolicy(new URL(DEV_SERVER));
    expect(answer).toEqual({ responseHeaders: { 'Content-Security-Policy': [policy] } });
    expect(policy).toContain("connect-src 'self' ws://localhost:5173");
    expect(policy).toContain("script-src 'self' 'unsafe-inline'");
  });
});
