import { createServer, type Server } from 'node:http';
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
async function serveExport(pages: (cursor: string | undefined) => ExportPage): Promise<string> {
  server = createServer((_req, res) => {
    streamExport(res, { contentType: 'text/plain', fileName: 'x.txt' }, undefined, pages).catch(() => {
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
});
