import type { DeputyClient } from '../../../shared/contract';
import { WS_PATH } from '../../../shared/contract/ws-names';
import { createIpcClient } from './ipc-client';
import { loadToken, takeTokenFromLocation } from './token';
import { createWsClient, socketUrlFor, type ConnectionStatus, type WsClient } from './ws-client';

/** Inside Electron the preload gives us `window.deputy`; in a browser we talk to the headless host's socket. */
export type Transport = { kind: 'ipc'; client: DeputyClient } | { kind: 'ws'; token: string | null };

export function pickTransport(): Transport {
  if (window.deputy) return { kind: 'ipc', client: createIpcClient(window.deputy) };
  return { kind: 'ws', token: takeTokenFromLocation() ?? loadToken() };
}

export function connectToHost(token: string, onStatus: (status: ConnectionStatus) => void): WsClient {
  return createWsClient({ url: socketUrlFor(window.location, WS_PATH), token, onStatus });
}
