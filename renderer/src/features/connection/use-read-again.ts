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
 * Events sent while the socket was down are lost: after a reconnect, the window reads again what it shows (the
 * conversation list and the open conversation), and until then what the host says of that conversation is held
 * for the reading.
 */
export function useReadAgainOnReconnect(status: ConnectionStatus | 'ipc'): void {
  const stores = useStores();
  const wasReconnecting = useRef(false);
  useEffect(() => {
    if (status === 'reconnecting' && !wasReconnecting.current) {
      wasReconnecting.current = true;
      stores.chat.getState().connectionLost();
    }
    if (status !== 'open' || !wasReconnecting.current) return;
    wasReconnecting.current = false;
    const chat = stores.chat.getState();
    void chat.loadThreads();
    void chat.refreshThread();
  }, [status, stores]);
}
