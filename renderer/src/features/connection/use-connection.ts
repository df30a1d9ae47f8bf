import { useCallback, useEffect, useState } from 'react';
import { connectToHost, pickTransport, type Transport } from '../../api/client';
import { saveToken } from '../../api/token';
import type { ConnectionStatus } from '../../api/ws-client';
import { createStores, type Stores } from '../../stores';
import { probeToken } from './probe-token';
import type { TokenProblem } from './TokenScreen';

export type Connection =
  | { kind: 'connected'; stores: Stores; status: ConnectionStatus | 'ipc' }
  | { kind: 'needs-token'; problem: TokenProblem }
  | { kind: 'connecting' };

interface Socket {
  stores: Stores;
  status: ConnectionStatus;
}

/**
 * Picks the transport once: the Electron bridge when there is one (always connected), else the headless
 * host's WebSocket with the token from the address, storage, or the token screen.
 */
export function useConnection(): { connection: Connection; submitToken: (token: string) => void } {
  const [transport] = useState<Transport>(pickTransport);
  const [ipcStores] = useState(() => (transport.kind === 'ipc' ? createStores(transport.client) : null));
  // `attempt` makes a resubmitted, unchanged token reconnect too.
  const [credentials, setCredentials] = useState({
    token: transport.kind === 'ws' ? transport.token : null,
    attempt: 0,
  });
  const [socket, setSocket] = useState<Socket | null>(null);
  // A refused socket does not say why: the host answers over HTTP whether it was the token.
  const [refusal, setRefusal] = useState<'wrong-token' | 'refused' | null>(null);
  const isRefused = socket?.status === 'refused';

  useEffect(() => {
    const { token } = credentials;
    if (!isRefused || token === null) return;
    let isCurrent = true;
    void probeToken(token).then((found) => isCurrent && setRefusal(found));
    return () => {
      isCurrent = false;
      setRefusal(null);
    };
  }, [isRefused, credentials]);

  useEffect(() => {
    const { token } = credentials;
    if (token === null) return;
    let stores: Stores | null = null;
    const client = connectToHost(token, (status) =>
      setSocket((current) => (current && current.stores === stores ? { ...current, status } : current)),
    );
    stores = createStores(client);
    setSocket({ stores, status: client.status });
    return () => {
      client.close();
      setSocket(null);
    };
  }, [credentials]);

  const submitToken = useCallback((token: string) => {
    saveToken(token);
    setCredentials((previous) => ({ token, attempt: previous.attempt + 1 }));
  }, []);

  if (ipcStores) return { connection: { kind: 'connected', stores: ipcStores, status: 'ipc' }, submitToken };
  if (credentials.token === null)
    return { connection: { kind: 'needs-token', problem: 'missing' }, submitToken };
  if (!socket) return { connection: { kind: 'connecting' }, submitToken };
  if (socket.status === 'refused') {
    if (refusal === null) return { connection: { kind: 'connecting' }, submitToken };
    return { connection: { kind: 'needs-token', problem: refusal }, submitToken };
  }
  if (socket.status === 'unauthorized') {
    return { connection: { kind: 'needs-token', problem: 'unauthorized' }, submitToken };
  }
  return { connection: { kind: 'connected', stores: socket.stores, status: socket.status }, submitToken };
}
