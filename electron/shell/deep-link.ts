import { app } from 'electron';
import { resolve } from 'node:path';
import { DEEP_LINK_SCHEME, findDeepLink, parseDeepLink, type DeepLink } from './deep-link-parse';

export { parseDeepLink, type DeepLink } from './deep-link-parse';

/** Links that arrived before the windows could show them (a link that launched Deputy on macOS). */
const early: DeepLink[] = [];
let openLink: ((link: DeepLink) => void) | null = null;

function receive(url: string): void {
  // A link that does not parse came from outside the app and names nothing Deputy knows: it is dropped.
  const link = parseDeepLink(url);
  if (!link) return;
  if (openLink) openLink(link);
  else early.push(link);
}

/**
 * Call at the very start, before `ready`. macOS delivers the link that launched the app as an `open-url`
 * event during launch, before `ready`; a listener added later never hears it. It is kept until
 * setupDeepLinks has a window to open it in.
 */
export function listenForDeepLinks(): void {
  app.once('will-finish-launching', () => {
    app.on('open-url', (event, url) => {
      event.preventDefault();
      receive(url);
    });
  });
}

/**
 * Makes Deputy the handler of `deputy://` links and routes each valid one to `open`, starting with those that
 * came early. Returns what to call with a second instance's command line (Windows and Linux deliver links that
 * way).
 */
export function setupDeepLinks(open: (link: DeepLink) => void): (argv: readonly string[]) => void {
  // Unpackaged on Windows the OS must start Electron with our entry script, or the link reaches a bare Electron.
  if (!app.isPackaged && process.platform === 'win32' && process.argv[1]) {
    app.setAsDefaultProtocolClient(DEEP_LINK_SCHEME, process.execPath, [resolve(process.argv[1])]);
  } else {
    app.setAsDefaultProtocolClient(DEEP_LINK_SCHEME);
  }
  openLink = open;
  for (const link of early.splice(0)) open(link);
  const openFromArgv = (argv: readonly string[]): void => {
    const link = findDeepLink(argv);
    if (link) open(link);
  };
  // A link that started the app on Windows and Linux arrives in our own command line.
  openFromArgv(process.argv);
  return openFromArgv;
}
