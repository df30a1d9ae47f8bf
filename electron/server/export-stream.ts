import type { ServerResponse } from 'node:http';

/** A page of an export: text to append, and the cursor of the next page (null at the end). */
export interface ExportPage {
  text: string;
  nextCursor: string | null;
}

/** What the response says it is: its type and the name a browser saves it under. */
export interface ExportFile {
  contentType: string;
  fileName: string;
}

/**
 * An export, a page at a time: each page is written once the client has taken the last one (backpressure), so a
 * million rows never sit in memory at once and the host goes on serving in between. The input is parsed before
 * this is called and the first page read before the status is sent, so either failing is answered with its typed
 * error, as every other route's is. A page that fails once the body has begun cuts
 * the response off, so the client sees a failed download rather than a file that looks whole.
 */
export async function streamExport(
  res: ServerResponse,
  file: ExportFile,
  first: string | undefined,
  pageAt: (cursor: string | undefined) => ExportPage | Promise<ExportPage>,
): Promise<void> {
  // The first page is read before the status is sent: a failure there is answered with its typed error.
  let page = await pageAt(first);
  res.writeHead(200, {
    'content-type': file.contentType,
    'content-disposition': `attachment; filename="${file.fileName}"`,
    'cache-control': 'no-store',
  });
  try {
    for (;;) {
      // The client may have hung up while the page was read: nothing would end a wait for it to drain.
      if (res.destroyed) return;
      if (!res.write(page.text)) await drainedOrClosed(res);
      if (page.nextCursor === null) break;
      const cursor = page.nextCursor;
      await new Promise((resolve) => setImmediate(resolve));
      if (res.destroyed) return;
      page = await pageAt(cursor);
    }
  } catch (error) {
    res.destroy();
    throw error;
  }
  res.end();
}

/**
 * Until the client has taken what was written, or has hung up (a client that hangs up never drains). Whichever
 * comes first takes the other's listener off: an export of thousands of pages to a slow client would otherwise
 * leave one behind on the response for each page.
 */
function drainedOrClosed(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}
