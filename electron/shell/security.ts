import { app, session, type WebContents } from 'electron';
import { isAuditViewerUrl, showAuditWindow } from './audit-window';
import { openExternal } from './external';
import { isAppUrl, rendererEntry } from './windows';

/**
 * The app's Content Security Policy. Scripts, styles and connections come from the app itself and nowhere
 * else, so an injected `<script>` or a rendered link cannot load or send anything. Styles may be inline
 * because React sets `style` attributes. While developing, the dev server's inline HMR preamble and its
 * WebSocket are allowed too; a packaged app never takes that branch.
 */
export function contentSecurityPolicy(devServer?: URL): string {
  const hmrSocket = devServer ? `${devServer.protocol === 'https:' ? 'wss:' : 'ws:'}//${devServer.host}` : '';
  const directives = [
    "default-src 'self'",
    devServer ? "script-src 'self' 'unsafe-inline'" : "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    devServer ? `connect-src 'self' ${hmrSocket}` : "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    "form-action 'none'",
  ];
  return directives.join('; ');
}

/** Locks down every webContents the app creates: windows, devtools, anything a page tries to open. */
export function hardenWebContents(contents: WebContents): void {
  // A page that navigates away keeps the preload bridge; a foreign page must never get it.
  const denyForeignNavigation = (event: { url: string; preventDefault(): void }): void => {
    if (!isAppUrl(event.url)) event.preventDefault();
  };
  contents.on('will-navigate', denyForeignNavigation);
  // The same for iframes, which `will-navigate` does not cover.
  contents.on('will-frame-navigate', denyForeignNavigation);
  // A server redirect is not a navigation the page started; without this an app URL that redirects
  // (or a link that does) would land a foreign page in a window that has the preload bridge.
  contents.on('will-redirect', denyForeignNavigation);

  // No page gets a second window (it would be a new renderer we never hardened); https links go to the
  // user's browser instead, where they belong.
  contents.setWindowOpenHandler(({ url }) => {
    // The one window a page may ask for: the audit viewer, opened by the shell itself (hardened like the
    // others) rather than by the page. Everything else is denied.
    if (isAuditViewerUrl(url)) showAuditWindow();
    else void openExternal(url, 'link');
    return { action: 'deny' };
  });

  // <webview> embeds a guest page with its own preferences; the app has no use for one, so none may attach.
  contents.on('will-attach-webview', (event) => event.preventDefault());
}

export function setupSecurity(): void {
  const entry = rendererEntry();
  const policy = contentSecurityPolicy(entry.protocol === 'file:' ? undefined : entry);

  // The policy goes on our own responses only: third-party responses (if any ever load) keep their own.
  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    if (!isAppUrl(details.url)) {
      callback({});
      return;
    }
    const responseHeaders = Object.fromEntries(
      Object.entries(details.responseHeaders ?? {}).filter(
        ([name]) => name.toLowerCase() !== 'content-security-policy',
      ),
    );
    callback({ responseHeaders: { ...responseHeaders, 'Content-Security-Policy': [policy] } });
  });

  // Camera, microphone, location, notifications, clipboard reads…: Deputy's pages need none, so a
  // compromised page cannot ask the user for them either. Native features go through the Host instead.
  session.defaultSession.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.defaultSession.setPermissionCheckHandler(() => false);
  // USB, HID, serial and Bluetooth devices likewise: no page of Deputy's talks to hardware.
  session.defaultSession.setDevicePermissionHandler(() => false);
  session.defaultSession.on('select-hid-device', (event, _details, callback) => {
    event.preventDefault();
    callback('');
  });
  session.defaultSession.on('select-serial-port', (event, _ports, _contents, callback) => {
    event.preventDefault();
    callback('');
  });
  session.defaultSession.on('select-usb-device', (event, _details, callback) => {
    event.preventDefault();
    callback();
  });

  app.on('web-contents-created', (_event, contents) => hardenWebContents(contents));
}
