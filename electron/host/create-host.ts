import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AgentCatalog } from '../agents/catalog';
import { ConnectionsService } from '../connections/connections-service';
import { CONTEXT_FILE } from '../context/context-db';
import { ContextService } from '../context/context-service';
import { contextTool } from '../context/context-tools';
import { notConnected } from '../connections/access';
import { GeminiConnector } from '../connections/gemini-connector';
import { GoogleConnector } from '../connections/google-connector';
import { SlackConnector } from '../connections/slack-connector';
import { createGeminiClient } from '../llm/gemini-client';
import { createGeminiEmbedder, type Embedder } from '../llm/gemini-embedder';
import { checkGeminiKey, listGeminiModels } from '../llm/gemini-models';
import { ModelsDesk } from './models-desk';
import type { ModelClient } from '../llm/model-client';
import { readModelConfig } from '../llm/model-config';
import { sleep } from '../engine/retry';
import { McpServers } from '../mcp/mcp-servers';
import { refusalForGone, type ServerGone } from '../../shared/rejection-words';
import { toolPrefixOf } from '../mcp/server-gone';
import { LOCK_FILE, lockDataFolder } from '../store/folder-lock';
import { Store } from '../store/store';
import { WalKeeper } from '../store/wal-keeper-client';
import { ToolRegistry } from '../tools/registry';
import { createCalendarTools } from '../tools/calendar/calendar-tools';
import { createGmailTools } from '../tools/gmail/gmail-tools';
import { createMemoryTools } from '../tools/memory/memory-tools';
import { createSlackTools } from '../tools/slack/slack-tools';
import { createTaskTools } from '../tools/tasks/task-tools';
import type { Tool } from '../tools/tool';
import { Host } from './host';
import { monotonicClock } from './monotonic-clock';
import { makeFolderPrivate } from './private-folder';
import { SettingsService, type Env } from './settings';
import { createKeyFileCipher, type SecretCipher } from '../vault/cipher';
import { redactError, rememberSecret } from '../vault/redactor';
import { Vault } from '../vault/vault';

export { Host };

export interface HostOptions {
  /** The app's data folder: Electron's userData, or DEPUTY_DATA_DIR / the OS data dir when headless. */
  dataDir: string;
  env: Env;
  /** Replaces the Gemini client built from `env` (the bench and engine tests use a scripted model). */
  modelClient?: () => ModelClient | null;
  now?: () => Date;
  /** More tools beside the built-in ones (an integration, a test's synthetic tool). */
  extraTools?: readonly Tool[];
  logError?: (message: string, error: unknown) => void;
  /** What the person should hear once (a data folder whose permissions were tightened); printed by default. */
  logNotice?: (message: string) => void;
  /** How secrets are encrypted at rest: Electron's safeStorage in the app, else a 0600 key file here. */
  cipher?: SecretCipher;
  /** Opens a sign-in page in the system browser (the shell); headless, the URL is returned and printed. */
  openExternal?: (url: string) => void;
  /** How retries wait (tests pass one that does not); the real one is a cancellable timer. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  random?: () => number;
  /** Where the built-in agent definitions are (resources/agents; the app's resources folder when packaged). */
  builtinAgentsDir?: string;
}

/** The person's own agent definitions, in the data folder. */
export const AGENTS_FOLDER = 'agents';
/** Keep-Up §5.4: agents delegate at most 3 levels deep; DEPUTY_AGENT_MAX_DEPTH may set it lower. */
const MAX_AGENT_DEPTH = 3;
const DISABLED_AGENTS_KEY = 'disabledAgents';

export const VAULT_KEY_FILE = 'vault.key';

const SECRET_ENV = [
  'GEMINI_API_KEY',
  'DEPUTY_API_TOKEN',
  'DEPUTY_GOOGLE_CLIENT_SECRET',
  'DEPUTY_SLACK_CLIENT_SECRET',
] as const;

export const DATABASE_FILE = 'deputy.db';

/** Composes the core (store, tools, model, settings) into the one Host both transports use. */
export async function createHost(options: HostOptions): Promise<Host> {
  // Before the folder is touched: a DEPUTY_MODEL that is not a model id stops the start with a sentence naming it.
  readModelConfig(options.env);
  const logNotice = options.logNotice ?? ((message: string) => console.warn(`[deputy] ${message}`));
  // The folder holds a person's mail, history and keys: owner-only before anything is written into it.
  const privateFiles = [
    ...[DATABASE_FILE, CONTEXT_FILE].flatMap((file) => [file, `${file}-wal`, `${file}-shm`]),
    VAULT_KEY_FILE,
    LOCK_FILE,
  ];
  for (const notice of makeFolderPrivate(options.dataDir, privateFiles)) logNotice(notice);
  // Before anything is read: a second host on this folder would resume the first one's runs.
  const store = Store.open(join(options.dataDir, DATABASE_FILE), lockDataFolder(options.dataDir));
  try {
    return composeHost(store, options, logNotice);
  } catch (error) {
    // The folder is given back, so a retry in this process is not told the folder is taken.
    store.close();
    throw error;
  }
}

function composeHost(store: Store, options: HostOptions, logNotice: (message: string) => void): Host {
  const now = options.now ?? monotonicClock();
  const { env } = options;
  const vault = new Vault(
    store.db,
    options.cipher ?? createKeyFileCipher(join(options.dataDir, VAULT_KEY_FILE)),
    now,
  );
  // Every secret already stored is known to the redactor before the first run, not only once it is read again.
  vault.rememberAll();
  // Secrets given through the environment are redacted like the vault's own.
  for (const name of SECRET_ENV) rememberSecret(env[name]?.trim());
  const logError =
    options.logError ??
    ((message: string, error: unknown) => console.error(`[deputy] ${message}: ${redactError(error)}`));
  const connections = new ConnectionsService();
  const { changed } = connections;
  const gemini = new GeminiConnector(vault, env, changed, (apiKey) => {
    const { baseUrl } = readModelConfig(env);
    return checkGeminiKey({ apiKey, ...(baseUrl && { baseUrl }) });
  });
  const google = new GoogleConnector({
    vault,
    env,
    changed,
    logError,
    ...(options.openExternal && { openExternal: options.openExternal }),
  });
  const slack = new SlackConnector({
    vault,
    env,
    changed,
    logError,
    ...(options.openExternal && { openExternal: options.openExternal }),
  });
  for (const connector of [google, slack, gemini]) connections.register(connector);
  const settings = new SettingsService(store.settings, env, () => gemini.apiKey() !== null);
  const registry = new ToolRegistry(
    [
      ...createTaskTools(store.tasks, now),
      // By meaning and by words, through the context index (made below; searched only once runs start).
      ...createMemoryTools(store.memories, now, (query, limit, signal) =>
        context.semantic.search(query, limit, signal),
      ),
      ...createGmailTools(google, { now }),
      ...createCalendarTools(google, { now, timezone: () => settings.choices().timezone }),
      ...createSlackTools(slack, { timezone: () => settings.choices().timezone }),
      ...(options.extraTools ?? []),
    ],
    (integration) => (connections.isUsable(integration) ? null : notConnected(integration).message),
  );
  let onAgentsChanged = (): void => {};
  const agentCatalog = new AgentCatalog({
    builtinDir: options.builtinAgentsDir ?? builtinAgentsDir(),
    userDir: join(options.dataDir, AGENTS_FOLDER),
    disabled: {
      read: () => {
        const stored = store.settings.all()[DISABLED_AGENTS_KEY];
        return Array.isArray(stored) ? stored.filter((name): name is string => typeof name === 'string') : [];
      },
      write: (names) => store.settings.set({ [DISABLED_AGENTS_KEY]: names }),
    },
    onChange: () => onAgentsChanged(),
  });
  let onServerGone = (_name: string, _how: ServerGone): void => {};
  const mcp = new McpServers({
    registry,
    settings: store.settings,
    vault,
    now,
    keepFull: (context, tool, full) =>
      store.policy.audit({
        timestamp: now().toISOString(),
        runId: context.runId,
        actionId: context.actionId,
        tool,
        event: 'mcp_full_result',
        decision: null,
        rule: null,
        reason: 'The model saw this answer cut to size; here it is whole.',
        detail: full,
      }),
    // An agent may list an extension's tool: Settings → Agents reads its unknown tools again.
    onToolsChanged: () => agentCatalog.toolsChanged(),
    // Made before the host: reaches its approvals once it exists.
    onServerGone: (name, how) => onServerGone(name, how),
  });
  mcp.startAll();
  const context = new ContextService({
    dataDir: options.dataDir,
    google,
    slack,
    isUsable: (integration) => connections.isUsable(integration),
    tasks: store.tasks,
    memories: store.memories,
    keepsRecentMail: () => settings.choices().embedRecentMail,
    embedder: embedderSource(env, () => gemini.apiKey()),
    now,
    timezone: () => settings.choices().timezone,
    logError,
  });
  registry.register(contextTool(context, registry, store, now));
  // A new or renewed connection is read soon; until then the index keeps what it knew.
  connections.subscribe(() => context.scheduleSoon());
  context.start();
  const host = new Host({
    store,
    walKeeper: new WalKeeper(store, logError),
    context,
    registry,
    mcp,
    agentCatalog,
    maxAgentDepth: agentDepth(env.DEPUTY_AGENT_MAX_DEPTH),
    settings,
    connections,
    vault,
    modelClient: options.modelClient ?? (() => geminiClient(env, gemini.apiKey())),
    models: new ModelsDesk({
      fetch: (signal) => {
        const apiKey = gemini.apiKey();
        const { baseUrl } = readModelConfig(env);
        return apiKey === null ? null : listGeminiModels({ apiKey, ...(baseUrl && { baseUrl }) }, signal);
      },
      keyId: () => {
        const apiKey = gemini.apiKey();
        return apiKey === null ? null : createHash('sha256').update(apiKey).digest('hex').slice(0, 16);
      },
      now: () => now().getTime(),
      logError,
    }),
    now,
    logError,
    sleep: options.sleep ?? sleep,
    random: options.random ?? Math.random,
  });
  onServerGone = (name, how) =>
    host.approvals.turnDownWaitingFor(toolPrefixOf(name), refusalForGone(name, how));
  onAgentsChanged = () => {
    const skipped = host.agents.refreshTools();
    if (skipped.length > 0)
      logNotice(`Agents not offered as tools (the name is taken): ${skipped.join(', ')}`);
  };
  agentCatalog.watch();
  // Whatever was running when Deputy last stopped goes on from its last checkpoint. The calls ended runs left
  // running are listed first, so none of a run resumed here is among them.
  void host.settleEndedRuns();
  host.resumeUnfinished();
  return host;
}

/** One embedder per key, made when first needed: a key set or changed later takes effect at the next search. */
function embedderSource(env: Env, apiKey: () => string | null): () => Embedder | null {
  let made: { key: string; embedder: Embedder } | null = null;
  return () => {
    const key = apiKey();
    if (!key) return null;
    if (made?.key !== key) {
      const { baseUrl } = readModelConfig(env);
      made = { key, embedder: createGeminiEmbedder({ apiKey: key, ...(baseUrl && { baseUrl }) }) };
    }
    return made.embedder;
  };
}

function geminiClient(env: Env, apiKey: string | null): ModelClient | null {
  if (!apiKey) return null;
  const { baseUrl } = readModelConfig(env);
  return createGeminiClient({ apiKey, ...(baseUrl && { baseUrl }) });
}

/**
 * The built-in definitions: beside the sources (a checkout, the headless host), or in the packaged app's
 * resources folder (electron-builder's extraResources puts them at `<resources>/agents`).
 */
function builtinAgentsDir(): string {
  const beside = fileURLToPath(new URL('../../resources/agents', import.meta.url));
  const packaged = (process as { resourcesPath?: string }).resourcesPath;
  return existsSync(beside) || !packaged ? beside : join(packaged, 'agents');
}

function agentDepth(value: string | undefined): number {
  const depth = Number(value);
  return Number.isInteger(depth) && depth >= 1 && depth <= MAX_AGENT_DEPTH ? depth : MAX_AGENT_DEPTH;
}
