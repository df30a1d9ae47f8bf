import type { Page } from 'playwright-core';

/**
 * Watches the conversation-list reads (`threads.list`) the page sends over its WebSockets from now on; call before
 * the page is opened. `unanswered()` is how many have not had their reply yet.
 */
export function listReads(page: Page): { unanswered: () => number } {
  const waiting = new Set<string>();
  const idOf = (payload: string | Buffer): { id?: unknown; kind?: unknown; channel?: unknown } => {
    try {
      const frame: unknown = JSON.parse(String(payload));
      return typeof frame === 'object' && frame !== null ? frame : {};
    } catch {
      return {};
    }
  };
  page.on('websocket', (socket) => {
    socket.on('framesent', ({ payload }) => {
      const { id, kind, channel } = idOf(payload);
      if (kind === 'command' && channel === 'threads.list' && typeof id === 'string') waiting.add(id);
    });
    socket.on('framereceived', ({ payload }) => {
      const { id, kind } = idOf(payload);
      if (kind === 'reply' && typeof id === 'string') waiting.delete(id);
    });
    socket.on('close', () => waiting.clear());
  });
  return { unanswered: () => waiting.size };
}
