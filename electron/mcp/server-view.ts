import { hash } from 'node:crypto';
import type { McpSecrets, McpServerConfig, McpServerView } from '../../shared/contract';
import { canonicalJson } from '../../shared/canonical-json';
import { namespacedName, type McpToolSpec } from '../tools/mcp/mcp-tool';
import type { ToolRegistry } from '../tools/registry';
import type { McpConnection } from './mcp-connection';

/** Which settings these are: the same settings, whatever the order of their keys, have the same revision. */
export function revisionOf(config: McpServerConfig): string {
  return hash('sha256', canonicalJson(config), 'hex').slice(0, 16);
}

/** What Settings and the API show of one server: its settings, state, tools, and its secrets masked. */
export function serverView(
  name: string,
  server: { config: McpServerConfig; connection: McpConnection; leftOut: string[] },
  secrets: McpSecrets,
  tools: { listed: McpToolSpec[]; registry: ToolRegistry },
): McpServerView {
  const { config, connection, leftOut } = server;
  const masked = (value: string | undefined): string => (value ? '••••••••' : '(not set)');
  return {
    name,
    config,
    revision: revisionOf(config),
    state: config.enabled ? connection.state : 'disabled',
    error: connection.error,
    restarts: connection.restarts,
    pid: connection.pid,
    tools: tools.listed.flatMap((spec) => {
      const tool = tools.registry.get(namespacedName(name, spec.name) ?? '');
      if (tool?.mcpServer !== name) return [];
      return [
        {
          name: tool.name,
          serverTool: spec.name,
          autonomy: config.toolAutonomy[spec.name] ?? null,
          description: tool.description,
          risk: tool.risk,
          hasSideEffects: tool.hasSideEffects,
        },
      ];
    }),
    ...(leftOut.length > 0 && { leftOut }),
    ...(connection.isRefused && { isRefused: true }),
    maskedSecrets: [
      ...config.secretEnv.map((key) => ({
        kind: 'env' as const,
        name: key,
        masked: masked(secrets.env[key]),
      })),
      ...config.secretHeaders.map((key) => ({
        kind: 'header' as const,
        name: key,
        masked: masked(secrets.headers[key]),
      })),
    ],
  };
}
