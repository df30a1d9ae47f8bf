import { McpServerConfig } from '../../shared/contract';
import { BoundedLog } from '../../electron/mcp/bounded-log';
import { McpConnection } from '../../electron/mcp/mcp-connection';
import type { McpToolSpec } from '../../electron/tools/mcp/mcp-tool';

/**
 * What the conformance suite launches for its client scenarios (it appends the test server's URL): Deputy's own
 * MCP connection connects, lists the tools and calls each one once with arguments that fit its schema.
 */
const url = process.argv.at(-1) ?? '';
let tools: McpToolSpec[] = [];
const log = new BoundedLog(200);
const connection = new McpConnection({
  name: 'conformance',
  config: McpServerConfig.parse({ transport: 'http', url }),
  secrets: () => ({ env: {}, headers: {} }),
  log,
  onTools: (listed) => (tools = listed),
  onChange: () => {},
});

await connection.start();
if (connection.state !== 'running') {
  console.error(log.snapshot().join('\n'));
  process.exit(1);
}
let failures = 0;
for (const tool of tools) {
  try {
    await connection.call(tool.name, argumentsFor(tool.inputSchema), AbortSignal.timeout(20_000));
  } catch (error) {
    failures += 1;
    console.error(`${tool.name}: ${(error as Error).message}`);
  }
}
await connection.stop('closing');
process.exit(failures === 0 ? 0 : 1);

function argumentsFor(schema: unknown): Record<string, unknown> {
  const properties =
    (schema as { properties?: Record<string, { type?: string }> } | undefined)?.properties ?? {};
  const sample: Record<string, unknown> = { number: 2, integer: 2, string: 'deputy', boolean: true };
  return Object.fromEntries(
    Object.entries(properties).map(([name, property]) => [name, sample[property.type ?? 'string'] ?? null]),
  );
}
