import { connect, type Socket } from 'node:net';

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Whatever came back, as sent (empty when the server closed without a word). */
  raw: string;
  /** How the exchange ended when it was not an answer: a socket error's code, 'closed' or 'timeout'. */
  ending?: string;
}

/**
 * Sends bytes exactly as given (no client library to fix them up on the way) and reads the answer until the
 * server closes the socket or `timeoutMs` passes. For requests fetch() refuses to make: malformed targets,
 * NULs in headers, absolute-form, slow senders.
 */
export function rawRequest(
  port: number,
  chunks: string | Buffer | readonly (string | Buffer)[],
  options: { timeoutMs?: number; gapMs?: number } = {},
): Promise<RawAnswer> {
  const parts = Array.isArray(chunks) ? chunks : [chunks];
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const received: Buffer[] = [];
    let isDone = false;
    let ending: string | undefined;
    const finish = (): void => {
      if (isDone) return;
      isDone = true;
      clearTimeout(timer);
      socket.destroy();
      const answer = parseAnswer(Buffer.concat(received));
      resolve(ending && answer.status === 0 ? { ...answer, ending } : answer);
    };
    const timer = setTimeout(() => {
      ending = 'timeout';
      finish();
    }, options.timeoutMs ?? 5_000);
    socket.on('data', (chunk: Buffer) => {
      received.push(chunk);
      if (isComplete(Buffer.concat(received).toString('utf8'))) finish();
    });
    socket.on('close', () => {
      ending ??= 'closed';
      finish();
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      ending ??= error.code ?? error.message;
      finish();
    });
    void writeParts(socket, parts, options.gapMs ?? 0);
  });
}

async function writeParts(socket: Socket, parts: readonly (string | Buffer)[], gapMs: number): Promise<void> {
  for (const [index, part] of parts.entries()) {
    if (index > 0 && gapMs > 0) await new Promise((resolve) => setTimeout(resolve, gapMs));
    if (socket.destroyed) return;
    socket.write(part);
  }
}

/** A whole answer with a Content-Length is complete once that many body bytes arrived. */
function isComplete(text: string): boolean {
  const end = text.indexOf('\r\n\r\n');
  if (end === -1) return false;
  // A switch of protocols (a WebSocket accepted) has no body of its own: the head is the whole answer.
  if (text.startsWith('HTTP/1.1 101')) return true;
  const length = /\r\ncontent-length:\s*(\d+)/i.exec(text.slice(0, end));
  return length !== null && Buffer.byteLength(text.slice(end + 4)) >= Number(length[1]);
}

export function parseAnswer(bytes: Buffer | string): RawAnswer {
  const buffer = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes);
  const raw = buffer.toString('utf8');
  const end = buffer.indexOf('\r\n\r\n');
  const head = end === -1 ? raw : buffer.subarray(0, end).toString('utf8');
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const bodyBytes = end === -1 ? Buffer.alloc(0) : buffer.subarray(end + 4);
  const body = (headers['transfer-encoding'] === 'chunked' ? unchunk(bodyBytes) : bodyBytes).toString('utf8');
  return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine)?.[1] ?? 0), headers, body, raw };
}

/** Chunk sizes count bytes, so the body is taken apart as bytes (a character may span two chunks). */
function unchunk(body: Buffer): Buffer {
  const parts: Buffer[] = [];
  let rest = body;
  for (;;) {
    const lineEnd = rest.indexOf('\r\n');
    if (lineEnd === -1) return Buffer.concat(parts);
    const size = parseInt(rest.subarray(0, lineEnd).toString('latin1'), 16);
    if (!Number.isFinite(size) || size === 0) return Buffer.concat(parts);
    parts.push(rest.subarray(lineEnd + 2, lineEnd + 2 + size));
    rest = rest.subarray(lineEnd + 2 + size + 2);
  }
}

/** A request with the given head lines; the Host header is the caller's to set (or leave out). */
export function httpRequest(
  method: string,
  target: string,
  headers: Record<string, string>,
  body = '',
): string {
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}`);
  if (body) lines.push(`Content-Length: ${Buffer.byteLength(body)}`);
  return `${method} ${target} HTTP/1.1\r\n${lines.join('\r\n')}${lines.length ? '\r\n' : ''}Connection: close\r\n\r\n${body}`;
}
