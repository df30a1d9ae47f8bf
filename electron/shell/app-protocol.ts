import { protocol } from 'electron';
import { readFile, realpath } from 'node:fs/promises';
import { extname, resolve, sep } from 'node:path';
import { contentSecurityPolicy } from './csp';

/**
 * The app's pages come from `app://deputy/…`, a privileged scheme of our own served by `protocol.handle`,
 * instead of `file://`. A page then has a real origin (so IPC and the CSP can compare origins), cannot
 * read other files on the disk, and the `grantFileProtocolExtraPrivileges` fuse can be turned off.
 */
export const APP_SCHEME = 'app';
export const APP_HOST = 'deputy';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;

/** Must run before `app.whenReady()`: Chromium reads the scheme list once, at start-up. */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([
    {
      scheme: APP_SCHEME,
      // standard: parsed like https (host, relative URLs, an origin); secure: a secure context, so the
      // page gets crypto.randomUUID and module scripts; fetch: the built bundle loads its chunks with it.
      privileges: { standard: true, secure: true, supportFetchAPI: true },
    },
  ]);
}

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};

/**
 * The file under `rootDir` that `url` names, or null. Decoding happens once, here, and the result must stay
 * inside the folder: `%2e%2e`, an encoded `/` or `\`, or a NUL could otherwise climb out of it.
 */
export function resolveAppPath(rootDir: string, url: string): string | null {
  const parsed = URL.parse(url);
  if (!parsed || parsed.protocol !== `${APP_SCHEME}:` || parsed.host !== APP_HOST) return null;
  let path: string;
  try {
    path = decodeURIComponent(parsed.pathname);
  } catch {
    return null;
  }
  if (path.includes('\0') || path.includes('\\')) return null;
  const root = resolve(rootDir);
  const file = resolve(root, `.${path === '/' ? '/index.html' : path}`);
  return file.startsWith(root + sep) ? file : null;
}

const notFound = (): Response => new Response('Not found', { status: 404 });

/**
 * The handler behind `protocol.handle('app', …)`: GET of a file inside the built renderer folder, with the
 * CSP on every response (a page's own `<meta>` policy is only the second line). Everything else is 404/405.
 */
export function createAppProtocolHandler(rootDir: string): (request: Request) => Promise<Response> {
  return async (request) => {
    // The renderer only reads its own files; nothing it does should be able to post to this handler.
    if (request.method !== 'GET' && request.method !== 'HEAD') return new Response(null, { status: 405 });
    const file = resolveAppPath(rootDir, request.url);
    if (!file) return notFound();
    try {
      // A symlink inside the folder could point anywhere: the real path must be inside the real folder too.
      const [realFile, realRoot] = await Promise.all([realpath(file), realpath(rootDir)]);
      if (!realFile.startsWith(realRoot + sep)) return notFound();
      const body = await readFile(realFile);
      return new Response(request.method === 'HEAD' ? null : body, {
        headers: {
          'Content-Type': CONTENT_TYPES[extname(realFile).toLowerCase()] ?? 'application/octet-stream',
          'Content-Security-Policy': contentSecurityPolicy(),
          'X-Content-Type-Options': 'nosniff',
        },
      });
    } catch {
      return notFound();
    }
  };
}

/** Serves the built renderer at `app://deputy/`. Call once the app is ready. */
export function setupAppProtocol(rendererDir: string): void {
  protocol.handle(APP_SCHEME, createAppProtocolHandler(rendererDir));
}
