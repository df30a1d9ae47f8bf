import { z } from 'zod';
import type { AutonomyLevel } from '../../../shared/contract';
import { isNestedDeeperThan } from '../../../shared/nesting';
import { ToolError, type RiskLevel, type Tool, type ToolCategory, type ToolContext } from '../tool';
import { mapMcpResult } from './mcp-result';
import { quoted } from '../../../shared/quote-words';

/** One tool as an MCP server lists it (`tools/list`): everything in it is the server's word, not Deputy's. */
export interface McpToolSpec {
  name: string;
  title?: string;
  description?: string;
  inputSchema?: unknown;
  annotations?: { readOnlyHint?: boolean; destructiveHint?: boolean; title?: string };
}

export interface McpToolDeps {
  /** Calls the tool by its name on the server; fails with a ToolError the model can read. */
  call: (toolName: string, args: Record<string, unknown>, signal: AbortSignal) => Promise<unknown>;
  /** The person's autonomy for this tool (per tool, else per server); null when they set none. */
  autonomy: (toolName: string) => AutonomyLevel | null;
  /** Keeps an answer the model only saw cut, whole, for the audit trail. */
  keepFull: (context: ToolContext, toolName: string, full: unknown) => void;
  /** Whether the server is reached over the network (counts against the external-call rate limit). */
  isExternal: boolean;
}

/** The separator between a server's name and its tool's: `filesystem__write_file`. */
export const NAMESPACE_SEPARATOR = '__';
/** The longest tool name Gemini takes, the server's name and the separator included. */
export const MAX_NAME = 64;
const MAX_DESCRIPTION = 1_000;
const MAX_SCHEMA_CHARS = 50_000;
/** Deeper than any real answer goes; past it the serializers and the redactor, which recurse, run out of stack. */
const MAX_ANSWER_DEPTH = 64;

/** The name the model and the policy see, in the letters Gemini accepts, or null when none fits. */
export function namespacedName(server: string, tool: string): string | null {
  const name = `${server}${NAMESPACE_SEPARATOR}${tool.replace(/[^A-Za-z0-9_.-]/g, '_')}`;
  return name.length <= MAX_NAME ? name : null;
}

/**
 * Deputy's tool for one MCP tool. Its risk comes from the server's annotations: `readOnlyHint` makes it a read,
 * `destructiveHint` a high-risk side effect, anything else a side effect the person confirms (unless they set the
 * tool's or the server's autonomy themselves). Its answers are always content from outside, labelled with the
 * server, even when it acts: an MCP server's answer is never an echo of what was decided.
 */
export function createMcpTool(server: string, spec: McpToolSpec, deps: McpToolDeps): Tool | null {
  const name = namespacedName(server, spec.name);
  if (!name) return null;
  const isReadOnly = spec.annotations?.readOnlyHint === true;
  const isDestructive = !isReadOnly && spec.annotations?.destructiveHint === true;
  const category: ToolCategory = isReadOnly ? 'query' : isDestructive ? 'delete' : 'external';
  const risk: RiskLevel = isReadOnly ? 'low' : isDestructive ? 'high' : 'medium';
  const parameters = publishedSchema(spec.inputSchema);
  const description = (spec.description ?? spec.title ?? spec.name).slice(0, MAX_DESCRIPTION);
  return {
    name,
    description: `[MCP server "${server}"] ${description}`,
    input: inputSchema(parameters),
    parameters,
    output: z.record(z.string(), z.unknown()),
    category,
    risk,
    hasSideEffects: !isReadOnly,
    isExternal: deps.isExternal,
    mcpServer: server,
    autonomy: () => deps.autonomy(spec.name),
    preview: (input) => ({
      title: `Run ${spec.name} on the MCP server ${quoted(server)}`,
      fields: Object.entries(input as Record<string, unknown>).map(([label, value]) => ({
        label,
        value: typeof value === 'string' ? value : JSON.stringify(value),
      })),
    }),
    provenance: (output) => [
      {
        label: `what ${spec.name} on the MCP server ${quoted(server)} returned`,
        text: JSON.stringify(output),
      },
    ],
    execute: async (input, context) => {
      const raw = await deps.call(spec.name, input as Record<string, unknown>, context.signal);
      // Checked before anything recurses into it (the mapping, the redactor, the ledger's and audit's JSON).
      if (isNestedDeeperThan(raw, MAX_ANSWER_DEPTH))
        throw new ToolError(
          'mcp_answer_too_deep',
          `The MCP server ${quoted(server)} answered ${spec.name} with content nested more than ${MAX_ANSWER_DEPTH} levels deep, which Deputy does not read, so the answer was dropped. The call was made.`,
        );
      const mapped = mapMcpResult(raw);
      if (mapped.isTruncated) deps.keepFull(context, name, raw);
      return { server, tool: spec.name, ...mapped.output };
    },
  };
}

/** The server's JSON Schema for the arguments, as an object schema of bounded size; else any object. */
function publishedSchema(raw: unknown): Record<string, unknown> {
  const fallback = { type: 'object', properties: {} };
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return fallback;
  const schema = { ...(raw as Record<string, unknown>) };
  delete schema.$schema;
  if (schema.type !== 'object') return fallback;
  const json = JSON.stringify(schema);
  return json.length <= MAX_SCHEMA_CHARS ? (JSON.parse(json) as Record<string, unknown>) : fallback;
}

/** The arguments are checked against the server's schema before the policy sees them; the server checks again. */
function inputSchema(parameters: Record<string, unknown>): z.ZodType<Record<string, unknown>> {
  const object = z.record(z.string(), z.unknown());
  try {
    const fromServer = z.fromJSONSchema(parameters as Parameters<typeof z.fromJSONSchema>[0]);
    return object.pipe(fromServer as z.ZodType<Record<string, unknown>, Record<string, unknown>>);
  } catch {
    // A schema zod cannot read is left to the server to enforce; the call is still an object.
    return object;
  }
}
