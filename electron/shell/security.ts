import { app, session, type WebContents } from 'electron';
import { contentSecurityPolicy } from './csp';
import { isAuditViewerUrl, showAuditWindow } from './audit-window';
import { openExternal } from './external';
import { isAppUrl, rendererEntry } from './windows';

export { contentSecurityPolicy } from './csp';

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

  // Web Bluetooth picks the first device found unless something answers the chooser: Deputy cancels it.
  contents.on('select-bluetooth-device', (event, _devices, callback) => {
    event.preventDefault();
    callback('');
  });

  // <webview> embeds a guest page with its own preferences; the app has no use for one, so none may attach.
  contents.on('will-attach-webview', (event) => event.preventDefault());
}

export function setupSecurity(): void {
  const entry = rendererEntry();
  // Only the dev server's pages pass through here: app:// responses carry the policy from their handler.
  const policy = contentSecurityPolicy(
    entry.protocol === 'http:' || entry.protocol === 'https:' ? entry : undefined,
  );

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
