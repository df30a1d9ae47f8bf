/**
 * The address hash carries an optional route and optional parameters: `#/approval/<id>`, `#token=…`, or
 * both as `#/approval/<id>&token=…`. The Electron shell opens its approval window at `#/approval/<id>`.
 */
export type Route = { kind: 'workspace' } | { kind: 'approval'; approvalId: string };

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

export function routeFromHash(hash: string): Route {
  const match = APPROVAL_PATH.exec(splitHash(hash).path);
  if (!match?.[1]) return { kind: 'workspace' };
  try {
    return { kind: 'approval', approvalId: decodeURIComponent(match[1]) };
  } catch {
    return { kind: 'workspace' };
  }
}
