import type { Page, WebSocketRoute } from 'playwright-core';
import { WS_PATH } from '../../../shared/contract/ws-names';

export interface SocketCut {
  /**
   * Cuts the window's WebSocket to the host on both ends, as a dropped network does, and keeps the window's
   * attempts to reconnect waiting (connecting, unanswered) until `restore()`.
   */
  cut(): void;
  /** Lets the waiting attempt (and every later one) through to the host. */
  restore(): void;
  /** How many sockets the window has opened to the host so far. */
  connections(): number;
}

/**
 * Puts itself between the page and the host's WebSocket: each socket the renderer opens goes through to the real
 * host, until `cut()`. Call before the page is opened.
 */
export async function cuttableSocket(page: Page): Promise<SocketCut> {
  let open: { page: WebSocketRoute; host: WebSocketRoute } | null = null;
  let connections = 0;
  let isCut = false;
  let reachable: Promise<void> = Promise.resolve();
  let letThrough: () => void = () => undefined;
  // The page's socket stays connecting while the handler waits: the renderer sees a host that does not answer.
  await page.routeWebSocket(
    (url) => url.pathname === WS_PATH,
    async (socket) => {
      await reachable;
      connections += 1;
      open = { page: socket, host: socket.connectToServer() };
    },
  );
  return {
    cut() {
      if (isCut) throw new Error('cuttableSocket(): already cut');
      isCut = true;
      reachable = new Promise((resolve) => (letThrough = resolve));
      const was = open;
      open = null;
      if (!was) throw new Error('cuttableSocket(): no socket is open to cut');
      void was.host.close();
      void was.page.close({ code: 1001, reason: 'The test cut the connection.' });
    },
    restore() {
      isCut = false;
      letThrough();
    },
    connections: () => connections,
  };
}
