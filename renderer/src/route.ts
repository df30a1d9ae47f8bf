/**
 * The address hash carries an optional route and optional parameters: `#/approval/<id>`, `#token=…`, or
 * both as `#/approval/<id>&token=…`. The Electron shell opens its approval window at `#/approval/<id>`.
 */
export type Route =
  | { kind: 'workspace'; threadId: string | null }
  | { kind: 'approval'; approvalId: string }
  | { kind: 'audit'; entryId: string | null };

export function splitHash(hash: string): { path: string; params: URLSearchParams } {
  const text = hash.replace(/^#/, '');
  if (!text.startsWith('/')) return { path: '', params: new URLSearchParams(text) };
  const cut = text.search(/[&?]/);
  return cut === -1
    ? { path: text, params: new URLSearchParams() }
    : { path: text.slice(0, cut), params: new URLSearchParams(text.slice(cut + 1)) };
}

export function joinHash(path: string, params: URLSearchParams): string {
  const rest = params.toString();
  const text = path && rest ? `${path}&${rest}` : path || rest;
  return text ? `#${text}` : '';
}

const APPROVAL_PATH = /^\/approval\/([^/]+)\/?$/;
const AUDIT_PATH = /^\/audit(?:\/([^/]+))?\/?$/;
const THREAD_PATH = /^\/thread\/([^/]+)\/?$/;
const WORKSPACE: Route = { kind: 'workspace', threadId: null };

/** `#/approval/<id>`, `#/audit` or `#/audit/<entry or action id>`, `#/thread/<id>`; anything else is the workspace. */
export function routeFromHash(hash: string): Route {
  const { path } = splitHash(hash);
  try {
    const approval = APPROVAL_PATH.exec(path);
    if (approval?.[1]) return { kind: 'approval', approvalId: decodeURIComponent(approval[1]) };
    const audit = AUDIT_PATH.exec(path);
    if (audit) return { kind: 'audit', entryId: audit[1] ? decodeURIComponent(audit[1]) : null };
    const thread = THREAD_PATH.exec(path);
    if (thread?.[1]) return { kind: 'workspace', threadId: decodeURIComponent(thread[1]) };
  } catch {
    // A malformed escape in the address is no route.
  }
  return WORKSPACE;
}
