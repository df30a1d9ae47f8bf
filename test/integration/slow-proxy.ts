import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A proxy in front of a fake that lets a request through at once but holds back its answer: the fake has
 * already acted (the mail is sent, the post is made) when the caller gives up waiting. The fakes' own delay
 * injection answers in the fake's place, so it cannot show a slow call that did go through. An answer is held
 * until the test lets it go, not for a time, so a caller slowed down by a loaded machine still gives up first.
 */
export interface SlowProxy {
  url: string;
  /** Every request that came through, as "METHOD /path". */
  seen: string[];
  /** Holds the fake's answers to requests whose "METHOD /path" matches until `release` is called. */
  hold(match: RegExp): { release(): void };
  close(): Promise<void>;
}

/** Headers that belong to one connection, not to the request: never forwarded. */
const HOP_BY_HOP = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive']);

export async function startSlowProxy(upstream: string): Promise<SlowProxy> {
  const holds: { match: RegExp; released: Promise<void>; release(): void }[] = [];
  const seen: string[] = [];

  const forward = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const method = req.method ?? 'GET';
    const url = new URL(req.url ?? '/', upstream);
    const key = `${method} ${url.pathname}`;
    seen.push(key);
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = String(value);
    }
    const answer = await fetch(url, {
      method,
      headers,
      ...(method !== 'GET' && method !== 'HEAD' && { body: Buffer.concat(chunks) }),
    });
    const body = Buffer.from(await answer.arrayBuffer());
    await holds.find((held) => held.match.test(key))?.released;
    if (res.destroyed) return;
    const outgoing: Record<string, string> = {};
    answer.headers.forEach((value, name) => {
      if (!HOP_BY_HOP.has(name) && name !== 'content-encoding') outgoing[name] = value;
    });
    res.writeHead(answer.status, outgoing);
    res.end(body);
  };

  const server = createServer((req, res) => {
    forward(req, res).catch(() => {
      if (!res.headersSent && !res.destroyed) res.writeHead(502).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    hold: (match) => {
      let release = (): void => {};
      const released = new Promise<void>((resolve) => (release = resolve));
      holds.push({ match, released, release });
      return { release };
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const held of holds) held.release();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
