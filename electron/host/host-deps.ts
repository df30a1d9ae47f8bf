import type { AgentCatalog } from '../agents/catalog';
import type { ConnectionsService } from '../connections/connections-service';
import type { ContextService } from '../context/context-service';
import type { ModelClient } from '../llm/model-client';
import type { McpServers } from '../mcp/mcp-servers';
import type { Store } from '../store/store';
import type { WalKeeper } from '../store/wal-keeper-client';
import type { ToolRegistry } from '../tools/registry';
import type { Vault } from '../vault/vault';
import type { ModelsDesk } from './models-desk';
import type { SettingsService } from './settings';

/** Everything the host is composed from; `createHost` makes the real ones, tests their own. */
export interface HostDeps {
  store: Store;
  /** Checkpoints the store's write-ahead log on a worker thread. */
  walKeeper: WalKeeper;
  /** The context index: the knowledge block of each run and who counts as known to the policy. */
  context: ContextService;
  registry: ToolRegistry;
  settings: SettingsService;
  connections: ConnectionsService;
  vault: Vault;
  /** The person's MCP servers, whose tools are in the registry as `server__tool`. */
  mcp: McpServers;
  /** Agent definitions: the built-ins and the person's own. */
  agentCatalog: AgentCatalog;
  /** How deep agents may delegate (1..3). */
  maxAgentDepth: number;
  /** Resolved per run, so a key or model configured later takes effect on the next run. */
  modelClient: () => ModelClient | null;
  now: () => Date;
  logError: (message: string, error: unknown) => void;
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  random: () => number;
  /** The models the Gemini key can use (Settings' model picker); without one, no list is known. */
  models?: ModelsDesk;
}
