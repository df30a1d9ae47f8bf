import { createServer, request, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { streamExport, type ExportPage } from '../../../electron/server/export-stream';

let server: Server | undefined;
afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

/**
 * An export over HTTP whose pages come from `pages`; a failure is handled as the headless host handles one that
 * comes once the body has begun (http-server.ts: the response is ended).
 */
async function serveExport(
  pages: (cursor: string | undefined, res: ServerResponse) => ExportPage | Promise<ExportPage>,
  onStreamed: (streamed: Promise<void>) => void = () => {},
): Promise<string> {
  server = createServer((_req, res) => {
    const streamed = streamExport(
      res,
      { contentType: 'text/plain', fileName: 'x.txt' },
      undefined,
      (cursor) => pages(cursor, res),
    );
    onStreamed(streamed);
    streamed.catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
      else res.end();
    });
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

describe('streaming an export', () => {
  it('writes each page in turn, from the first cursor to the last', async () => {
    const url = await serveExport((cursor) =>
      cursor === undefined
        ? { text: 'one\n', nextCursor: '2' }
        : { text: `page ${cursor}\n`, nextCursor: null },
    );
    const response = await fetch(url);
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="x.txt"');
    expect(await response.text()).toBe('one\npage 2\n');
  });

  it('cuts the response off when a page fails midway, so the client never takes half an export for a whole one', async () => {
    const url = await serveExport((cursor) => {
      if (cursor === undefined) return { text: '{"id":"a","messages":[', nextCursor: '1.4' };
      throw new Error('the database went away');
    });
    const response = await fetch(url);
    expect(response.status).toBe(200);
    await expect(response.text()).rejects.toThrow();
  });

  it('sends no status before the first page is read, so a failure there is answered with its own error', async () => {
    const url = await serveExport(() => {
      throw new Error('the database went away');
    });
    const response = await fetch(url);
    expect(response.status).toBe(500);
    expect(response.headers.get('content-disposition')).toBeNull();
  });

  it('leaves no listener behind on the response for each page a slow client makes it wait for', async () => {
    const PAGES = 200;
    let mostListeners = 0;
    const url = await serveExport((cursor, res) => {
      mostListeners = Math.max(mostListeners, res.listenerCount('close'), res.listenerCount('drain'));
      const page = Number(cursor ?? 0) + 1;
      return { text: 'x'.repeat(64 * 1024), nextCursor: page < PAGES ? String(page) : null };
    });
    const bytes = await new Promise<number>((resolve, reject) => {
      request(url, (response) => {
        let received = 0;
        // Slow at first: the host waits for it to drain, page after page.
        response.pause();
        setTimeout(() => response.resume(), 100);
        response.on('data', (chunk: Buffer) => (received += chunk.length));
        response.on('end', () => resolve(received));
        response.on('error', reject);
      }).end();
    });
    expect(bytes).toBe(PAGES * 64 * 1024);
    // Node's own and the wait's: a few, not one more per page.
    expect(mostListeners).toBeLessThan(5);
  });

  it('stops, rather than waits for ever, when the client hangs up while a page is being read', async () => {
    let hangUp = (): void => {};
    const hungUp = new Promise<void>((resolve) => (hangUp = resolve));
    let streamed: Promise<void> | undefined;
    const url = await serveExport(
      async (cursor) => {
        // The second page takes a while to read, and the client is gone before it comes.
        if (cursor !== undefined) await hungUp.then(() => new Promise((resolve) => setTimeout(resolve, 50)));
        return { text: 'x'.repeat(1024), nextCursor: String(Number(cursor ?? 0) + 1) };
      },
      (promise) => (streamed = promise),
    );
    await new Promise<void>((resolve) => {
      const client = request(url, (response) =>
        response.once('data', () => {
          client.destroy();
          hangUp();
          resolve();
        }),
      );
      client.end();
    });
    const outcome = await Promise.race([
      (streamed ?? Promise.reject(new Error('never served'))).then(() => 'stopped'),
      new Promise((resolve) => setTimeout(() => resolve('still waiting'), 2_000)),
    ]);
    expect(outcome).toBe('stopped');
  });
});
