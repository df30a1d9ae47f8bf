import { DeputyError } from '../../shared/contract';

export interface RequestTarget {
  /** The path exactly as sent (still percent-encoded), always starting with a single `/`. */
  path: string;
  query: URLSearchParams;
}

// Only origin-form targets ("/api/x?y=1") are ours. Absolute-form ("http://other/…"), authority-form and
// "*" are for proxies; "//x" would read as a host name to a URL parser. Anything else is refused before
// a router or a URL parser sees it, so no parser can throw on what a client sent.
const ORIGIN_FORM = /^\/(?!\/)[\x21-\x7e]*$/;

/** The path and query of a request, or null when the request target is not one Deputy serves. */
export function parseRequestTarget(raw: string | undefined): RequestTarget | null {
  if (raw === undefined || raw.length > MAX_TARGET_CHARS || !ORIGIN_FORM.test(raw)) return null;
  const at = raw.indexOf('?');
  const path = at === -1 ? raw : raw.slice(0, at);
  const hash = path.indexOf('#');
  return {
    path: hash === -1 ? path : path.slice(0, hash),
    query: new URLSearchParams(at === -1 ? '' : raw.slice(at + 1)),
  };
}

/** Node already caps the whole header block; this keeps a single target well inside it. */
const MAX_TARGET_CHARS = 8_192;

export const badTarget = (): DeputyError =>
  new DeputyError('invalid_input', 'The request target must be a path on this host, such as /api/health.');

/**
 * One percent-encoded path segment, decoded. Malformed escapes and control characters are the client's
 * mistake (400), never an exception that escapes as a 500.
 */
export function decodePathPart(part: string): string {
  let decoded: string;
  try {
    decoded = decodeURIComponent(part);
  } catch {
    throw new DeputyError('invalid_input', 'A path segment has a malformed percent-encoding.');
  }
  if (CONTROL_CHARS.test(decoded) || decoded.includes('/')) {
    throw new DeputyError('invalid_input', 'A path segment may not contain control characters or "/".');
  }
  return decoded;
}

// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHARS = /[\u0000-\u001f\u007f]/;
