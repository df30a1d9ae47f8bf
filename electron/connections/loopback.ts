import { timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The one-shot redirect listener of an installed app's OAuth sign-in (RFC 8252 §7.3): the browser comes back
 * to http://127.0.0.1:<random port>/callback with `code` and `state`, and this hands the code over once.
 */
export interface LoopbackRedirect {
  redirectUri: string;
  /**
   * Resolves with the code; rejects with a LoopbackError (denied, invalid response, timeout, closed). A
   * redirect carrying another state is answered 400 and settles nothing.
   */
  code: Promise<string>;
  /** Stops listening; a pending `code` rejects with `closed`. Safe to call more than once. */
  close(): void;
}

export type LoopbackErrorCode = 'access_denied' | 'timeout' | 'closed' | 'invalid_response';

export class LoopbackError extends Error {
  constructor(
    readonly code: LoopbackErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'LoopbackError';
  }
}

export interface LoopbackOptions {
  state: string;
  timeoutMs: number;
  /** The redirect path; other paths (a browser's /favicon.ico) get a 404 and do not end the wait. */
  path?: string;
}

/** Listens on 127.0.0.1 only: a redirect listener on every interface would let the local network answer it. */
export async function startLoopbackRedirect(options: LoopbackOptions): Promise<LoopbackRedirect> {
  const path = options.path ?? '/callback';
  let settle: { resolve: (code: string) => void; reject: (error: LoopbackError) => void } | null = null;
  const code = new Promise<string>((resolve, reject) => {
    settle = { resolve, reject };
  });
  // The owner may only look at `code` later (or never, when it cancels); a rejection is still observed.
  code.catch(() => undefined);

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method !== 'GET' || url.pathname !== path || !settle) {
      sendPage(res, 404, 'Not found', 'This is Deputy’s sign-in listener; there is nothing here.');
      return;
    }
    // A redirect without our state answers a request Deputy did not make (login CSRF): its code is never
    // used. It does not end the wait either, or any local web page could cancel every sign-in by loading
    // /callback?state=x; only our own redirect, the timeout or close() end it.
    if (!isSameSecret(url.searchParams.get('state') ?? '', options.state)) {
      sendPage(
        res,
        400,
        'Sign-in did not complete',
        'This response did not match the request Deputy made, so it was refused. You can close this tab.',
      );
      return;
    }
    const outcome = readRedirect(url.searchParams);
    if (outcome.isOk) {
      // Not "Signed in": Deputy has yet to trade the code for tokens, which can still fail (the service down, a
      // wrong client secret). Its window says which; this page cannot, as it is answered before.
      sendPage(res, 200, 'Almost done', FINISHING);
      finish(() => settle?.resolve(outcome.code));
    } else {
      sendPage(res, 400, 'Sign-in did not complete', `${outcome.error.message} You can close this tab.`);
      finish(() => settle?.reject(outcome.error));
    }
  });

  const timer = setTimeout(() => {
    finish(() =>
      settle?.reject(
        new LoopbackError('timeout', 'The browser sign-in was not completed in time. Try connecting again.'),
      ),
    );
  }, options.timeoutMs);

  /** Settles once, then stops listening; the answer already written still reaches the browser. */
  function finish(outcome: () => void): void {
    if (!settle) return;
    outcome();
    settle = null;
    clearTimeout(timer);
    server.close();
    server.closeIdleConnections();
  }

  await new Promise<void>((resolve, reject) => {
    const failed = (error: Error) => {
      // A listen that fails must leave no timer keeping the process alive.
      clearTimeout(timer);
      reject(error);
    };
    server.once('error', failed);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', failed);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    redirectUri: `http://127.0.0.1:${port}${path}`,
    code,
    close: () => {
      finish(() => settle?.reject(new LoopbackError('closed', 'The sign-in was cancelled.')));
      server.closeAllConnections();
    },
  };
}

/** What the browser shows once its part is done. */
const FINISHING =
  'Deputy is finishing the sign-in: its window says when you are connected, or what went wrong. You can close this tab.';

type RedirectOutcome = { isOk: true; code: string } | { isOk: false; error: LoopbackError };

/** Our own redirect (its state already checked): the code, or why there is none. */
function readRedirect(query: URLSearchParams): RedirectOutcome {
  const error = query.get('error');
  if (error === 'access_denied')
    return { isOk: false, error: new LoopbackError('access_denied', 'Access was denied in the browser.') };
  if (error)
    return {
      isOk: false,
      error: new LoopbackError(
        'invalid_response',
        `The sign-in page returned an error (${describe(error)}).`,
      ),
    };
  const code = query.get('code');
  if (!code)
    return {
      isOk: false,
      error: new LoopbackError('invalid_response', 'The sign-in response carried no authorization code.'),
    };
  return { isOk: true, code };
}

/** Constant-time, so the state cannot be guessed byte by byte from response times. */
function isSameSecret(actual: string, expected: string): boolean {
  const a = Buffer.from(actual);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** An OAuth error code is a short token; anything else is not echoed back. */
function describe(error: string): string {
  return /^[\w.-]{1,64}$/.test(error) ? error : 'unknown error';
}

// Self-contained page: no scripts, styles only inline, nothing loaded from anywhere.
const CSP = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'";

function sendPage(res: ServerResponse<IncomingMessage>, status: number, title: string, text: string): void {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Deputy — ${escapeHtml(title)}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;margin:15vh auto;max-width:32rem;padding:0 1rem;color:#222}</style>
</head><body><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p></body></html>`;
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': CSP,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-store',
    connection: 'close',
  });
  res.end(html);
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
