import { readFile } from 'node:fs/promises';
import {
  DeputyError,
  type McpSecrets,
  McpServerConfig,
  type McpServerView,
  quoteId,
} from '../../shared/contract';
import type { SettingsRepo } from '../store/settings-repo';
import { createMcpTool, MAX_NAME, NAMESPACE_SEPARATOR, type McpToolSpec } from '../tools/mcp/mcp-tool';
import type { ToolRegistry } from '../tools/registry';
import type { Tool, ToolContext } from '../tools/tool';
import type { Vault } from '../vault/vault';
import { BoundedLog } from './bounded-log';
import { parseMcpServersBlock } from './import-config';
import { McpConnection } from './mcp-connection';
import { revisionOf, serverView } from './server-view';
import type { Backoff } from './start-tally';
import { McpSecretStore } from './mcp-secrets';
import { secretInPlainSight } from './secret-in-plain-sight';
import type { ServerGone } from '../../shared/rejection-words';
import { asRecord } from '../store/json';
import { redactErrorMessage } from '../vault/redactor';
import { quoted } from '../../shared/quote-words';

const CONFIGS_KEY = 'mcp.servers';
/** The tools each server listed last, so a server's tools are offered before it has connected. */
const TOOLS_KEY = 'mcp.tools';
/** How long saving or restarting a server waits for it to start before answering (it may take up to 30 s). */
const SAVE_WAITS_MS = 5_000;
/** How many servers of an imported config start at once: each is a process, and may take its 5 s. */
const IMPORT_STARTS_AT_ONCE = 4;

export interface McpServersDeps {
  registry: ToolRegistry;
  settings: SettingsRepo;
  vault: Vault;
  now: () => Date;
  /** Keeps an answer the model only saw cut, whole, for the audit trail. */
  keepFull: (context: ToolContext, toolName: string, full: unknown) => void;
  /** Told when the names of a server's tools in the registry change (it connected, listed others, went away). */
  onToolsChanged?: () => void;
  /** Told when a server was removed or turned off: what waits for approval on its tools can no longer run. */
  onServerGone?: (name: string, how: ServerGone) => void;
  backoff?: Backoff;
}

interface Entry {
  config: McpServerConfig;
  connection: McpConnection;
  log: BoundedLog;
  /** Its tools left out at its last listing, and why (Settings shows them on its card). */
  leftOut: string[];
}

/**
 * The person's MCP servers: their configuration (settings, with secrets in the vault), their connections, and
 * their tools in the registry as `server__tool`, kept in step with what each server lists.
 */
export class McpServers {
  private readonly entries = new Map<string, Entry>();
  private readonly secrets: McpSecretStore;

  constructor(private readonly deps: McpServersDeps) {
    this.secrets = new McpSecretStore(deps.vault);
  }

  /** At start-up: every enabled server starts now, or (`first_use`) offers its last known tools until called. */
  startAll(): void {
    for (const [name, config] of Object.entries(this.storedConfigs())) this.open(name, config);
  }

  list(): McpServerView[] {
    return [...this.entries.keys()].sort().map((name) => this.view(name));
  }

  /**
   * Adds or replaces a server; with `revision`, only over the settings it was read as, and with `isNew`, only if
   * there is none of that name (see `McpPutInput`).
   */
  async put(
    name: string,
    config: McpServerConfig,
    secrets?: McpSecrets,
    { revision, isNew }: { revision?: string; isNew?: true } = {},
  ): Promise<McpServerView> {
    const stored = this.storedConfigs();
    if (revision !== undefined) refuseIfStale(name, stored[name], revision);
    if (isNew && stored[name] !== undefined)
      throw new DeputyError(
        'conflict',
        `There is already an MCP server named ${quoted(name)}, so nothing was saved. Give this one another name, or change that one on its card.`,
      );
    const configs = { ...stored, [name]: config };
    const exposed = this.whyNotSaved(configs, name, secrets);
    if (exposed) throw new DeputyError('invalid_input', exposed);
    return this.save(name, config, secrets, configs);
  }

  /** Saves and starts a server whose settings (`configs`, all of them) were checked. */
  private async save(
    name: string,
    config: McpServerConfig,
    secrets: McpSecrets | undefined,
    configs: Record<string, McpServerConfig>,
  ): Promise<McpServerView> {
    if (secrets) this.secrets.merge(name, secrets);
    this.secrets.keepOnly(name, config.secretEnv, config.secretHeaders);
    this.deps.settings.set({ [CONFIGS_KEY]: configs });
    const wasOn = this.entries.get(name)?.config.enabled ?? false;
    await this.entries.get(name)?.connection.stop(config.enabled ? 'restarted' : 'turned_off');
    const entry = this.open(name, config);
    if (wasOn && !config.enabled) this.deps.onServerGone?.(name, 'turned_off');
    // A new or changed server is tried at once, so Settings can say whether it works; one slow to start is shown
    // starting after a few seconds, and Settings, which reads the servers again every 2 s, shows how it ends.
    if (config.enabled) await entry.connection.startWithin(SAVE_WAITS_MS);
    return this.view(name);
  }

  async delete(name: string): Promise<void> {
    const entry = this.entry(name);
    const { [name]: _removed, ...rest } = this.storedConfigs();
    const exposed = this.whyNotSaved(rest, name);
    if (exposed) throw new DeputyError('invalid_input', exposed);
    await entry.connection.stop('removed');
    this.entries.delete(name);
    this.deps.settings.set({ [CONFIGS_KEY]: rest });
    this.forgetTools(name);
    this.secrets.delete(name);
    this.deps.onServerGone?.(name, 'removed');
  }

  async restart(name: string): Promise<McpServerView> {
    const entry = this.entry(name);
    if (!entry.config.enabled)
      throw new DeputyError('conflict', `The MCP server ${quoted(name)} is turned off.`);
    await entry.connection.restart(SAVE_WAITS_MS);
    return this.view(name);
  }

  log(name: string): string[] {
    return this.entry(name).log.snapshot();
  }

  /** Reads another app's `mcpServers` block; each server is added (or replaced) with its secrets in the vault. */
  async import(source: { path?: string; text?: string }): Promise<{
    imported: string[];
    secretsStored: number;
    skipped: { name: string; reason: string }[];
  }> {
    const text = source.text ?? (await readConfigFile(source.path ?? ''));
    const parsed = parseMcpServersBlock(text);
    let secretsStored = 0;
    // Each server's outcome in the file's order, whichever started first.
    const outcomes: ({ imported: string } | { skipped: { name: string; reason: string } })[] = [];
    const queue = [...parsed.servers.entries()];
    // Servers start a few at a time, each waiting its few seconds beside the others, not after them. Each
    // server's settings are read, checked and written with no wait in between (`save` awaits only after writing),
    // so servers saved side by side do not write over each other.
    const worker = async (): Promise<void> => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        const [index, server] = next;
        const configs = { ...this.storedConfigs(), [server.name]: server.config };
        const exposed = this.whyNotSaved(configs, server.name, server.secrets);
        if (exposed) {
          outcomes[index] = { skipped: { name: server.name, reason: exposed } };
          continue;
        }
        try {
          await this.save(server.name, server.config, server.secrets, configs);
        } catch (error) {
          // One server that cannot be saved (its secrets, say) is named in the answer; the others go on.
          const reason = `It could not be saved: ${redactErrorMessage(error)}`;
          outcomes[index] = { skipped: { name: server.name, reason } };
          continue;
        }
        secretsStored += Object.keys(server.secrets.env).length + Object.keys(server.secrets.headers).length;
        outcomes[index] = { imported: server.name };
      }
    };
    await Promise.all(Array.from({ length: Math.min(IMPORT_STARTS_AT_ONCE, queue.length) }, worker));
    return {
      imported: outcomes.flatMap((outcome) => ('imported' in outcome ? [outcome.imported] : [])),
      secretsStored,
      skipped: [
        ...parsed.skipped,
        ...outcomes.flatMap((outcome) => ('skipped' in outcome ? [outcome.skipped] : [])),
      ],
    };
  }

  async close(): Promise<void> {
    await Promise.all([...this.entries.values()].map((entry) => entry.connection.stop('closing')));
  }

  private open(name: string, config: McpServerConfig): Entry {
    const log = this.entries.get(name)?.log ?? new BoundedLog(500, this.deps.now);
    const connection = new McpConnection({
      name,
      config,
      secrets: () => this.secrets.get(name),
      log,
      onTools: (tools, leftOut) => this.setTools(name, config, tools, true, leftOut),
      onChange: () => {},
      ...(this.deps.backoff && { backoff: this.deps.backoff }),
    });
    const entry: Entry = { config, connection, log, leftOut: [] };
    this.entries.set(name, entry);
    if (!config.enabled) {
      this.replaceTools(name, []);
      return entry;
    }
    // The tools it listed last are offered at once, whether it starts now or at first use: a run resumed at
    // start-up may call one before the server has connected (a call waits for the start it needs).
    const known = this.storedTools()[name];
    if (known) this.setTools(name, config, known, false);
    if (config.start !== 'first_use' || !known) void connection.start();
    return entry;
  }

  private setTools(
    name: string,
    config: McpServerConfig,
    specs: McpToolSpec[],
    isFresh: boolean,
    listingLeftOut: string[] = [],
  ): void {
    const tooLong: string[] = [];
    const connection = (): McpConnection => this.entry(name).connection;
    const tools = specs.flatMap((spec) => {
      const tool = createMcpTool(name, spec, {
        call: (tool, args, signal) => connection().call(tool, args, signal),
        autonomy: (tool) => config.toolAutonomy[tool] ?? config.autonomy,
        keepFull: this.deps.keepFull,
        isExternal: config.transport === 'http',
      });
      if (!tool)
        tooLong.push(
          `tool ${quoted(spec.name.slice(0, 100))} left out: ${quoted(`${name}${NAMESPACE_SEPARATOR}${spec.name.slice(0, 100)}`)} is longer than the ${MAX_NAME} characters a tool's name may have (a shorter server name may make it fit)`,
        );
      return tool ? [tool] : [];
    });
    const taken = this.replaceTools(name, tools).map((tool) => `tool ${tool} left out: the name is taken`);
    const entry = this.entries.get(name);
    for (const line of [...(isFresh ? tooLong : []), ...taken]) entry?.log.note(line);
    if (isFresh && entry) entry.leftOut = [...listingLeftOut, ...tooLong, ...taken];
    if (isFresh) this.deps.settings.set({ [TOOLS_KEY]: { ...this.storedTools(), [name]: specs } });
  }

  private forgetTools(name: string): void {
    this.replaceTools(name, []);
    const { [name]: _removed, ...rest } = this.storedTools();
    this.deps.settings.set({ [TOOLS_KEY]: rest });
  }

  /** Puts a server's tools in the registry; a change in their names is told (an agent may list one of them). */
  private replaceTools(name: string, tools: readonly Tool[]): string[] {
    const names = (): string =>
      this.deps.registry
        .list()
        .filter((tool) => tool.mcpServer === name)
        .map((tool) => tool.name)
        .sort()
        .join('\n');
    const before = names();
    const skipped = this.deps.registry.replaceServerTools(name, tools);
    if (names() !== before) this.deps.onToolsChanged?.();
    return skipped;
  }

  private view(name: string): McpServerView {
    const listed = this.storedTools()[name] ?? [];
    return serverView(name, this.entry(name), this.secrets.get(name), {
      listed,
      registry: this.deps.registry,
    });
  }

  private entry(name: string): Entry {
    const entry = this.entries.get(name);
    if (!entry) throw new DeputyError('not_found', `There is no MCP server named ${quoteId(name)}.`);
    return entry;
  }

  /**
   * Why `configs` may not be saved (see `secretInPlainSight`). The redactor is first told every secret it will
   * know once they are saved, the new ones and those of every server in the vault: what it takes out of
   * settings then no longer depends on which servers this process happened to read.
   */
  private whyNotSaved(
    configs: Record<string, McpServerConfig>,
    changed: string,
    secrets?: McpSecrets,
  ): string | null {
    for (const name of Object.keys(configs)) this.secrets.get(name);
    if (secrets) this.secrets.remember(secrets);
    return secretInPlainSight(configs, changed);
  }

  private storedConfigs(): Record<string, McpServerConfig> {
    const stored = this.deps.settings.all()[CONFIGS_KEY];
    const configs: Record<string, McpServerConfig> = {};
    for (const [name, value] of Object.entries(asRecord(stored))) {
      const parsed = McpServerConfig.safeParse(value);
      // A damaged entry is left out rather than guessed at; the others still start.
      if (parsed.success) configs[name] = parsed.data;
    }
    return configs;
  }

  private storedTools(): Record<string, McpToolSpec[]> {
    return asRecord(this.deps.settings.all()[TOOLS_KEY]) as Record<string, McpToolSpec[]>;
  }
}

/**
 * Refuses a change made on a copy of a server's settings read before another change (another window, the API) or
 * its removal: saved, it would write the other change over in silence. Compared with the settings stored, which a
 * save writes before it waits on the server, so two saves side by side cannot both pass.
 */
function refuseIfStale(name: string, stored: McpServerConfig | undefined, revision: string): void {
  const how = stored === undefined ? 'removed' : revisionOf(stored) === revision ? null : 'changed';
  if (how)
    throw new DeputyError(
      'changed_since',
      `The MCP server ${quoted(name)} was ${how} elsewhere (in another window or through the API) after these settings of it were read, so nothing was saved.`,
    );
}

async function readConfigFile(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch {
    throw new DeputyError('not_found', `Deputy could not read a config file at ${path}.`);
  }
}
