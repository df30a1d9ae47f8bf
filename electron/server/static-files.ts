import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { sendError, sendJson } from './http-io';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};

// The renderer only ever needs its own scripts and styles, and the WebSocket back to this host.
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self' ws://127.0.0.1:* ws://localhost:*",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "form-action 'none'",
].join('; ');

/**
 * Serves the built renderer for GET and HEAD. Paths are resolved inside `root` only; unknown paths fall back
 * to index.html. `path` is the request's path, still percent-encoded.
 */
export async function serveStatic(
  req: IncomingMessage,
  res: ServerResponse,
  root: string,
  path: string,
): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.setHeader('allow', 'GET, HEAD');
    return sendJson(res, 405, {
      ok: false,
      error: { code: 'invalid_input', message: `${req.method} is not allowed here.` },
    });
  }
  const relative = decodePath(path);
  if (relative === null) {
    return sendError(res, { code: 'invalid_input', message: 'The path has a malformed percent-encoding.' });
  }
  const candidate = normalize(join(root, relative));
  // Refuse anything that escapes the renderer folder (../, encoded separators).
  const inside = candidate === root || candidate.startsWith(root.endsWith(sep) ? root : root + sep);
  // Source maps are never served, even if a build left some behind: they would hand out Deputy's source.
  const isServable = inside && !candidate.endsWith('.map') && (await isFile(candidate));
  const file = isServable ? candidate : join(root, 'index.html');
  if (!(await isFile(file))) {
    return sendError(res, {
      code: 'not_found',
      message: 'The renderer is not built yet. Run "npm run build:renderer" (npm run serve does it for you).',
    });
  }
  const isIndex = file.endsWith('index.html');
  const gzip = isCompressible(file) && /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
  res.writeHead(200, {
    'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
    'content-security-policy': CONTENT_SECURITY_POLICY,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    // Built assets carry a content hash in their name, so they never change; the page itself always may.
    'cache-control': isIndex ? 'no-store' : 'public, max-age=31536000, immutable',
    vary: 'accept-encoding',
    ...(gzip && { 'content-encoding': 'gzip' }),
  });
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  const body = createReadStream(file);
  // A file removed or unreadable between the check and the read ends this response, not the process.
  (gzip ? pipeline(body, createGzip(), res) : pipeline(body, res)).catch(() => res.destroy());
}

const COMPRESSIBLE = new Set(['.html', '.js', '.css', '.json', '.svg']);
const isCompressible = (file: string): boolean => COMPRESSIBLE.has(extname(file));

function decodePath(path: string): string | null {
  try {
    const decoded = decodeURIComponent(path);
    return decoded.includes('\u0000') ? null : decoded;
  } catch {
    return null;
  }
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}
