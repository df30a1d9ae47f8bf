import { createStore, type StoreApi } from 'zustand/vanilla';
import type {
  AutonomyLevel,
  DeputyClient,
  McpSecrets,
  McpServerConfig,
  McpServerView,
} from '../../../../shared/contract';
import { ClientError, toClientError } from '../../api/client-error';

export interface ExtensionsState {
  servers: McpServerView[] | null;
  loadError: string | null;
  /** The server (or `import`, `add`) whose request is in flight. */
  busy: string | null;
  /** The last action's outcome in words, or why it failed. */
  outcome: string | null;
  error: string | null;
  /** The stderr log shown, with its server's name. */
  log: { name: string; lines: string[] } | null;
}

export interface ExtensionsActions {
  load(): Promise<void>;
  /** Adds or replaces a server; secret values go to the vault and never come back. */
  save(name: string, config: McpServerConfig, secrets?: McpSecrets): Promise<boolean>;
  /**
   * The changes made from a server's card (its autonomy, Turn off or on, a tool's setting, Restart, Remove, Log)
   * answer null once made, else why not, for the card to show beside the control that asked (see whyNotSaved).
   */
  setAutonomy(server: McpServerView, autonomy: AutonomyLevel | null): Promise<string | null>;
  /** Turns a server off (it stops, its tools are no longer offered; its settings and secrets stay) or on. */
  setEnabled(server: McpServerView, isEnabled: boolean): Promise<string | null>;
  /**
   * A server's new command and arguments, or address (`changes`): it is saved and started so. Null once saved, else
   * why not, for the edit form to show beside its field (the panel does not say it again).
   */
  changeTarget(server: McpServerView, changes: Partial<McpServerConfig>): Promise<string | null>;
  /**
   * New values for a server's secrets (a name it did not have becomes one of its secrets): they go to the vault, as
   * the add form's do, and are never sent back; the server starts again with them. Null once saved, else why not.
   */
  replaceSecrets(server: McpServerView, secrets: McpSecrets): Promise<string | null>;
  /** One tool's own setting (by its name on the server); null goes back to the server's. */
  setToolAutonomy(
    server: McpServerView,
    tool: string,
    autonomy: AutonomyLevel | null,
  ): Promise<string | null>;
  /** Removes a server and its secrets; null once removed, else why not. */
  remove(name: string): Promise<string | null>;
  restart(name: string): Promise<string | null>;
  /** Shows a server's log; null once shown, else why not. Only reads: a change in flight is left to go on. */
  showLog(name: string): Promise<string | null>;
  hideLog(): void;
  /** A config file's text (from the file picker) or a path the host reads. */
  importConfig(source: { text: string } | { path: string }): Promise<void>;
}

export type ExtensionsStore = StoreApi<ExtensionsState & ExtensionsActions>;

export function createExtensionsStore(client: DeputyClient): ExtensionsStore {
  return createStore<ExtensionsState & ExtensionsActions>()((set, get) => {
    const fail = (error: unknown) => set({ error: toClientError(error).message, outcome: null, busy: null });
    const replace = (server: McpServerView) =>
      set((state) => ({
        servers: [...(state.servers ?? []).filter((item) => item.name !== server.name), server].sort((a, b) =>
          a.name.localeCompare(b.name),
        ),
      }));

    // Counts the changes begun and ended. The panel reads the servers every 2 s: a reading asked for before a
    // change ended (Turn off, Remove, a tool's setting) may answer after it, with the server as it was, and is
    // dropped; taken, it would show the old state, and the next change made from that card would save it back.
    let changes = 0;

    async function act(busy: string, work: () => Promise<string | null>): Promise<boolean> {
      const other = get().busy;
      if (other) {
        // One change at a time: the one asked for now is not lost in silence, the person is told to wait.
        set({ error: `${waitingOn(other)} is not finished yet; try again once it is.`, outcome: null });
        return false;
      }
      changes += 1;
      set({ busy, error: null, outcome: null });
      try {
        const outcome = await work();
        // A "not finished yet" said meanwhile to a change asked for too soon is over now.
        set({ busy: null, outcome, error: null });
        return true;
      } catch (error) {
        fail(error);
        return false;
      } finally {
        changes += 1;
      }
    }

    /**
     * Saves one server's settings with `changes`; its secrets in the vault stay as they are but for `secrets`. Only
     * over the settings its card shows (its revision): a change made elsewhere meanwhile is not written over.
     */
    const change = (
      server: McpServerView,
      changes: Partial<McpServerConfig>,
      outcome: string | null = null,
      secrets?: McpSecrets,
    ) =>
      act(server.name, async () => {
        try {
          const { server: saved } = await client.invoke('mcp.put', {
            name: server.name,
            config: { ...server.config, ...changes },
            revision: server.revision,
            ...(secrets && { secrets }),
          });
          replace(saved);
          return outcome;
        } catch (error) {
          throw await readAgainIfStale(server.name, error);
        }
      });

    /**
     * A change refused because its card was drawn before the server changed elsewhere (or was removed): the servers
     * are read again, so the card shows what is saved now, and the words say so.
     */
    const readAgainIfStale = async (name: string, error: unknown): Promise<unknown> => {
      const failure = toClientError(error);
      if (failure.code !== 'changed_since') return error;
      await get().load();
      if (!get().servers?.some((item) => item.name === name)) return failure;
      return new ClientError(
        failure.code,
        `${failure.message} Its card now shows its current settings: make your change again if you still want it.`,
      );
    };

    /**
     * For a change made on a server's card: null once it is made, else why not, taken from the panel's error line
     * (below the import, out of view in a short window) to show beside the control that asked for it. A card gone
     * meanwhile (its server removed elsewhere) shows nothing: the panel's line keeps the words.
     */
    const whyNotSaved = async (name: string, isSaved: Promise<boolean>): Promise<string | null> => {
      if (await isSaved) return null;
      const { error, servers } = get();
      const isCardGone = servers !== null && !servers.some((server) => server.name === name);
      if (!isCardGone) set({ error: null });
      return error;
    };

    return {
      servers: null,
      loadError: null,
      busy: null,
      outcome: null,
      error: null,
      log: null,
      async load() {
        const asked = changes;
        try {
          const { servers } = await client.invoke('mcp.list', {});
          if (changes !== asked) return;
          // Read every 2 s while the panel is open, and mostly the same: the same answer leaves the state (and
          // the cards, each with its tools) as they are.
          const { servers: shown, loadError } = get();
          if (loadError === null && JSON.stringify(servers) === JSON.stringify(shown)) return;
          set({ servers, loadError: null });
        } catch (error) {
          set({ loadError: toClientError(error).message });
        }
      },
      save: (name, config, secrets) =>
        act('add', async () => {
          const { server } = await client.invoke('mcp.put', {
            name,
            config,
            ...(secrets && { secrets }),
            isNew: true,
          });
          replace(server);
          // One slow to start is answered while it starts: the panel, read again every 2 s, shows how it ends.
          return server.state === 'starting'
            ? `Saved ${name}. It is still starting; its card shows when it runs, or why it does not.`
            : `Saved ${name}.`;
        }),
      setAutonomy: (server, autonomy) => whyNotSaved(server.name, change(server, { autonomy })),
      setEnabled: (server, enabled) =>
        whyNotSaved(
          server.name,
          change(
            server,
            { enabled },
            enabled
              ? `Turned ${server.name} on.`
              : `Turned ${server.name} off: its tools are not offered until you turn it on.`,
          ),
        ),
      changeTarget(server, changes) {
        const what = server.config.transport === 'stdio' ? 'command' : 'address';
        return whyNotSaved(server.name, change(server, changes, `Saved the new ${what} of ${server.name}.`));
      },
      replaceSecrets(server, secrets) {
        const { secretEnv, secretHeaders } = server.config;
        const env = Object.keys(secrets.env);
        const headers = Object.keys(secrets.headers);
        const names = { secretEnv: union(secretEnv, env), secretHeaders: union(secretHeaders, headers) };
        const what = env.length + headers.length === 1 ? 'secret' : 'secrets';
        return whyNotSaved(
          server.name,
          change(server, names, `Saved the new ${what} of ${server.name} in the vault.`, secrets),
        );
      },
      setToolAutonomy: (server, tool, autonomy) => {
        const { [tool]: _previous, ...others } = server.config.toolAutonomy;
        const toolAutonomy = autonomy === null ? others : { ...others, [tool]: autonomy };
        return whyNotSaved(server.name, change(server, { toolAutonomy }));
      },
      remove: (name) =>
        whyNotSaved(
          name,
          act(name, async () => {
            // Removed elsewhere meanwhile (another window, the API): what the person asked for is so already.
            const isGone = await client.invoke('mcp.delete', { name }).then(
              () => false,
              (error: unknown) => {
                if (toClientError(error).code === 'not_found') return true;
                throw error;
              },
            );
            set((state) => ({ servers: (state.servers ?? []).filter((item) => item.name !== name) }));
            return isGone ? `${name} was already removed.` : `Removed ${name}; its secrets left the vault.`;
          }),
        ),
      restart: (name) =>
        whyNotSaved(
          name,
          act(name, async () => {
            replace((await client.invoke('mcp.restart', { name })).server);
            return null;
          }),
        ),
      async showLog(name) {
        try {
          const { lines } = await client.invoke('mcp.log', { name });
          set({ log: { name, lines } });
          return null;
        } catch (error) {
          return toClientError(error).message;
        }
      },
      hideLog: () => set({ log: null }),
      async importConfig(source) {
        await act('import', async () => {
          const result = await client.invoke('mcp.import', source);
          await get().load();
          const skipped = result.skipped.map((entry) => `${entry.name} (${entry.reason})`).join(', ');
          return [
            `Imported ${counted(result.imported.length, 'server')}`,
            result.secretsStored > 0 ? `; ${counted(result.secretsStored, 'secret')} went to the vault` : '',
            skipped ? `. Skipped: ${skipped}` : '',
            '.',
          ].join('');
        });
      },
    };
  });
}

const union = (names: readonly string[], added: readonly string[]): string[] => [
  ...new Set([...names, ...added]),
];

/** "1 server", "2 servers": a count in words, not "server(s)". */
export const counted = (count: number, word: string): string => `${count} ${word}${count === 1 ? '' : 's'}`;

/** What an action in flight is, in words: `busy` is a server's name, or the add form's or the import's. */
function waitingOn(busy: string): string {
  if (busy === 'add') return 'Adding the server';
  if (busy === 'import') return 'The import';
  return `What you asked of “${busy}”`;
}
