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
 * this is called, so a bad one is still answered with its error. A page that fails once the body has begun cuts
 * the response off, so the client sees a failed download rather than a file that looks whole.
 */
export async function streamExport(
  res: ServerResponse,
  file: ExportFile,
  first: string | undefined,
  pageAt: (cursor: string | undefined) => ExportPage | Promise<ExportPage>,
): Promise<void> {
  res.writeHead(200, {
    'content-type': file.contentType,
    'content-disposition': `attachment; filename="${file.fileName}"`,
    'cache-control': 'no-store',
  });
  let cursor = first;
  try {
    for (;;) {
      if (res.destroyed) return;
      const page = await pageAt(cursor);
      // The client may have hung up while the page was read: nothing would end a wait for it to drain.
      if (res.destroyed) return;
      if (!res.write(page.text)) await drainedOrClosed(res);
      if (page.nextCursor === null) break;
      cursor = page.nextCursor;
      await new Promise((resolve) => setImmediate(resolve));
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
