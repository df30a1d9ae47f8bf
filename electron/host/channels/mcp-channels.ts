import type { McpServers } from '../../mcp/mcp-servers';
import type { HandlersFor } from './handlers';

/** The MCP domain: the servers the person added, their settings, restarts and logs. */
export function mcpChannels(
  mcp: McpServers,
): HandlersFor<'mcp.list' | 'mcp.put' | 'mcp.delete' | 'mcp.restart' | 'mcp.log' | 'mcp.import'> {
  return {
    'mcp.list': () => ({ servers: mcp.list() }),
    'mcp.put': async (input) => ({
      server: await mcp.put(input.name, input.config, input.secrets, input),
    }),
    'mcp.delete': async (input) => {
      await mcp.delete(input.name);
      return { deleted: input.name };
    },
    'mcp.restart': async (input) => ({ server: await mcp.restart(input.name) }),
    'mcp.log': (input) => ({ lines: mcp.log(input.name) }),
    'mcp.import': (input) => mcp.import(input),
  };
}
