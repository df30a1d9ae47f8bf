import { createStore, type StoreApi } from 'zustand/vanilla';
import type {
  ConnectionName,
  ConnectionStatus,
  ConnectionsConnectInput,
  DeputyClient,
} from '../../../../shared/contract';
import { toClientError } from '../../api/client-error';

/** What this window is doing with one connection: a request in flight, and what the last one said. */
export interface ConnectionActivity {
  inFlight: 'connect' | 'disconnect' | null;
  error: string | null;
  /** What the host said about a connection that went through (a key it could not check). */
  notice: string | null;
  /** Whether the last error refused what was sent (a key Gemini did not accept), so its field is what to fix. */
  isInputRefused: boolean;
}

export interface ConnectionsState {
  /** As the host last reported them; null until the first list arrives. */
  connections: ConnectionStatus[] | null;
  loadError: string | null;
  activity: Partial<Record<ConnectionName, ConnectionActivity>>;
}

export interface ConnectionsActions {
  /** Reads the list and follows `connections.changed`; returns the unsubscribe. */
  follow(): () => void;
  load(): Promise<void>;
  /**
   * Sends a sign-in. The input (which may carry a key or token) is handed to the host and not kept:
   * nothing in this store ever holds a secret. Resolves true when the host accepted it.
   */
  connect(input: ConnectionsConnectInput): Promise<boolean>;
  disconnect(name: ConnectionName): Promise<boolean>;
}

export type ConnectionsStore = StoreApi<ConnectionsState & ConnectionsActions>;

const IDLE: ConnectionActivity = { inFlight: null, error: null, notice: null, isInputRefused: false };

function upsert(list: ConnectionStatus[] | null, status: ConnectionStatus): ConnectionStatus[] {
  const current = list ?? [];
  return current.some((item) => item.name === status.name)
    ? current.map((item) => (item.name === status.name ? status : item))
    : [...current, status];
}

export function createConnectionsStore(client: DeputyClient): ConnectionsStore {
  return createStore<ConnectionsState & ConnectionsActions>()((set, get) => {
    const setActivity = (name: ConnectionName, activity: ConnectionActivity) =>
      set((state) => ({ activity: { ...state.activity, [name]: activity } }));

    // Counts what told the window of a connection after a read of the list was sent (an event, a sign-in's
    // answer): a list read before it is not drawn over it, or a slow host's answer took a sign-in back.
    let news = 0;

    const isBusy = (name: ConnectionName) => (get().activity[name]?.inFlight ?? null) !== null;

    /** One request at a time per connection: a second click while the first is in flight sends nothing. */
    async function request(
      name: ConnectionName,
      kind: 'connect' | 'disconnect',
      send: () => Promise<{ status: ConnectionStatus; notice?: string | undefined }>,
    ): Promise<boolean> {
      if (isBusy(name)) return false;
      setActivity(name, { ...IDLE, inFlight: kind });
      try {
        const { status, notice } = await send();
        news += 1;
        set((state) => ({ connections: upsert(state.connections, status) }));
        setActivity(name, { ...IDLE, notice: notice ?? null });
        return true;
      } catch (error) {
        const failure = toClientError(error);
        const isInputRefused = kind === 'connect' && failure.code === 'invalid_input';
        setActivity(name, { ...IDLE, error: failure.message, isInputRefused });
        return false;
      }
    }

    return {
      connections: null,
      loadError: null,
      activity: {},

      follow() {
        const unsubscribe = client.on('connections.changed', {}, ({ connections }) => {
          // A sign-in that finished in the browser makes the last attempt's error out of date.
          const settled = connections.filter((status) => status.state === 'connected').map((s) => s.name);
          news += 1;
          set((state) => ({
            connections,
            loadError: null,
            activity: Object.fromEntries(
              Object.entries(state.activity).map(([name, activity]) => [
                name,
                settled.includes(name as ConnectionName) ? { ...activity, error: null } : activity,
              ]),
            ),
          }));
        });
        void get().load();
        return unsubscribe;
      },

      async load() {
        const newsBefore = news;
        try {
          const { connections } = await client.invoke('connections.list', {});
          if (news === newsBefore) set({ connections, loadError: null });
        } catch (error) {
          set({ loadError: toClientError(error).message });
        }
      },

      connect(input) {
        return request(input.name, 'connect', async () => {
          const { status, authUrl, notice } = await client.invoke('connections.connect', input);
          // The reply's authUrl is the page to open even if the status was read a moment before it was set.
          return { status: { ...status, authUrl: status.authUrl ?? authUrl }, notice };
        });
      },

      disconnect(name) {
        return request(name, 'disconnect', async () => {
          return client.invoke('connections.disconnect', { name });
        });
      },
    };
  });
}
