import { app } from 'electron';
import { resolve } from 'node:path';
import { DEEP_LINK_SCHEME, findDeepLink, parseDeepLink, type DeepLink } from './deep-link-parse';

export { parseDeepLink, type DeepLink } from './deep-link-parse';

/**
 * Makes Deputy the handler of `deputy://` links and routes each valid one to `open`. Returns what to call
 * with a second instance's command line (Windows and Linux deliver links that way). A link that does not
 * parse is dropped: it came from outside the app and names nothing Deputy knows.
 */
export function setupDeepLinks(open: (link: DeepLink) => void): (argv: readonly string[]) => void {
  // Unpackaged on Windows the OS must start Electron with our entry script, or the link reaches a bare Electron.
  if (!app.isPackaged && process.platform === 'win32' && process.argv[1]) {
    app.setAsDefaultProtocolClient(DEEP_LINK_SCHEME, process.execPath, [resolve(process.argv[1])]);
  } else {
    app.setAsDefaultProtocolClient(DEEP_LINK_SCHEME);
  }
  // macOS delivers links as an event, to the running instance.
  app.on('open-url', (event, url) => {
    event.preventDefault();
    const link = parseDeepLink(url);
    if (link) open(link);
  });
  const openFromArgv = (argv: readonly string[]): void => {
    const link = findDeepLink(argv);
    if (link) open(link);
  };
  // A link that started the app arrives in our own command line.
  openFromArgv(process.argv);
  return openFromArgv;
}
