import { useEffect, useRef } from 'react';
import type { ConnectionStatus } from '../../api/ws-client';
import { useStores } from '../../stores';

const STATUS_TEXT: Partial<Record<ConnectionStatus, string>> = {
  connecting: 'Connecting to Deputy…',
  reconnecting: 'Lost the connection to Deputy. Reconnecting…',
  closed: 'Disconnected from Deputy.',
};

/** What a window says of its connection to the host: nothing while it is open (or over IPC, which does not drop). */
export const connectionWords = (status: ConnectionStatus | 'ipc'): string | undefined =>
  status === 'ipc' ? undefined : STATUS_TEXT[status];

/**
 * Events sent while the socket was down are lost: `onLost` is told as it drops, and `readAgain` once it is open
 * again, so that the window reads again what it shows. Over IPC, which does not drop, neither is called.
 */
export function useAfterReconnect(
  status: ConnectionStatus | 'ipc',
  readAgain: () => void,
  onLost?: () => void,
): void {
  // The latest callbacks, so that a window's re-render does not count as a reconnect.
  const callbacks = useRef({ readAgain, onLost });
  useEffect(() => {
    callbacks.current = { readAgain, onLost };
  });
  const wasReconnecting = useRef(false);
  useEffect(() => {
    if (status === 'reconnecting' && !wasReconnecting.current) {
      wasReconnecting.current = true;
      callbacks.current.onLost?.();
    }
    if (status !== 'open' || !wasReconnecting.current) return;
    wasReconnecting.current = false;
    callbacks.current.readAgain();
  }, [status]);
}

/**
 * The chat's windows (the workspace and the quick prompt) read again after a reconnect the conversation list and
 * the open conversation; until then what the host says of that conversation is held for the reading.
 */
export function useReadAgainOnReconnect(status: ConnectionStatus | 'ipc'): void {
  const stores = useStores();
  useAfterReconnect(
    status,
    () => {
      const chat = stores.chat.getState();
      void chat.loadThreads();
      void chat.refreshThread();
    },
    () => stores.chat.getState().connectionLost(),
  );
}
