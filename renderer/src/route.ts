/**
 * The address hash carries an optional route and optional parameters: `#/approval/<id>`, `#token=…`, or
 * both as `#/approval/<id>&token=…`. The Electron shell opens its approval window at `#/approval/<id>`,
 * its quick prompt at `#/quick`, the audit viewer at `#/audit[/<id>]`, one conversation at `#/thread/<id>`, and
 * Settings → Connections over the workspace at `#/settings/connections`. The workspace takes those last two once and
 * puts `#/` back (App.tsx), so that the same ask again is heard.
 */
export type Route =
  | { kind: 'workspace'; threadId?: string; settings?: 'connections' }
  | { kind: 'approval'; approvalId: string }
  | { kind: 'quick' }
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
const CONNECTIONS_PATH = /^\/settings\/connections\/?$/;

function decoded(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}

/**
 * `#/quick`, `#/approval/<id>`, `#/audit` or `#/audit/<entry or action id>`, `#/thread/<id>`,
 * `#/settings/connections`; else the workspace.
 */
export function routeFromHash(hash: string): Route {
  const { path } = splitHash(hash);
  if (path === '/quick') return { kind: 'quick' };
  if (CONNECTIONS_PATH.test(path)) return { kind: 'workspace', settings: 'connections' };
  const approvalId = decoded(APPROVAL_PATH.exec(path)?.[1] ?? '');
  if (approvalId) return { kind: 'approval', approvalId };
  const audit = AUDIT_PATH.exec(path);
  if (audit) return { kind: 'audit', entryId: audit[1] ? decoded(audit[1]) : null };
  const threadId = decoded(THREAD_PATH.exec(path)?.[1] ?? '');
  if (threadId) return { kind: 'workspace', threadId };
  return { kind: 'workspace' };
}
