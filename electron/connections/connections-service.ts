import type {
  ConnectionName,
  ConnectionStatus,
  ConnectionsConnectInput,
  ConnectionsConnectOutput,
} from '../../shared/contract';

/** One connectable service. Its status never carries a secret; its changes are announced through `onChange`. */
export interface Connector<Name extends ConnectionName = ConnectionName> {
  readonly name: Name;
  status(): ConnectionStatus;
  /** Whether calls can be made now: saved credentials that have not lapsed, even while a reconnect is pending. */
  isUsable(): boolean;
  connect(input: Extract<ConnectionsConnectInput, { name: Name }>): Promise<ConnectionsConnectOutput>;
  disconnect(): Promise<ConnectionStatus>;
  /** Stops listeners and timers (a pending browser sign-in). */
  close?(): void;
}

export type ConnectionsListener = (connections: ConnectionStatus[]) => void;

/** The connections screen and API over every connector; `changed()` is what connectors call on any change. */
export class ConnectionsService {
  private readonly connectors = new Map<ConnectionName, Connector>();
  private readonly listeners = new Set<ConnectionsListener>();

  register(connector: Connector): void {
    this.connectors.set(connector.name, connector);
  }

  list(): ConnectionStatus[] {
    return [...this.connectors.values()].map((connector) => connector.status());
  }

  status(name: ConnectionName): ConnectionStatus {
    return this.connector(name).status();
  }

  isUsable(name: ConnectionName): boolean {
    return this.connector(name).isUsable();
  }

  async connect(input: ConnectionsConnectInput): Promise<ConnectionsConnectOutput> {
    const connector = this.connector(input.name) as Connector<typeof input.name>;
    return connector.connect(input as never);
  }

  async disconnect(name: ConnectionName): Promise<ConnectionStatus> {
    return this.connector(name).disconnect();
  }

  subscribe(listener: ConnectionsListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Connectors call this whenever their status changes. */
  readonly changed = (): void => {
    const connections = this.list();
    for (const listener of this.listeners) listener(connections);
  };

  close(): void {
    for (const connector of this.connectors.values()) connector.close?.();
    this.listeners.clear();
  }

  private connector(name: ConnectionName): Connector {
    const connector = this.connectors.get(name);
    if (!connector) throw new Error(`no connector for ${name}`);
    return connector;
  }
}

export function emptyStatus(name: ConnectionName, isConfigured: boolean): ConnectionStatus {
  return {
    name,
    state: 'disconnected',
    account: null,
    scopes: [],
    expiresAt: null,
    error: null,
    authUrl: null,
    isConfigured,
  };
}
