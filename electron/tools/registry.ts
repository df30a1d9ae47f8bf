import { z } from 'zod';
import { describeIssues } from '../../shared/contract/errors';
import type { ToolDeclaration } from '../llm/model-client';
import type { CallMeta } from '../policy/types';
import { META_JSON_SCHEMA, splitMeta } from './call-meta';
import {
  ToolError,
  type Integration,
  type Tool,
  type ToolCategory,
  type ToolContext,
  type RiskLevel,
} from './tool';

/** Why an integration cannot be used right now ("Google is not connected…"), or null when it can. */
export type IntegrationCheck = (integration: Integration) => string | null;

/** What a tool declares, for the API and for anyone auditing what the assistant can do. */
export interface ToolDescription {
  name: string;
  description: string;
  category: ToolCategory;
  risk: RiskLevel;
  hasSideEffects: boolean;
  requires: Integration | null;
  input: Record<string, unknown>;
  output: Record<string, unknown>;
}

/** Names the registry refuses for ordinary tools: they belong to the agent's control flow. */
export const RESERVED_TOOL_NAMES = new Set(['complete_task', 'request_clarification', 'refuse']);

export type ToolOutcome =
  | { ok: true; tool: Tool; args: Record<string, unknown>; result: Record<string, unknown> }
  | { ok: false; code: 'unknown_tool' | 'invalid_arguments' | 'tool_failed'; message: string };

export type ArgsCheck =
  | { ok: true; tool: Tool; input: unknown; args: Record<string, unknown>; meta: CallMeta }
  | { ok: false; code: 'unknown_tool' | 'invalid_arguments' | 'not_connected'; message: string };

export class ToolRegistry {
  private readonly tools = new Map<string, Tool>();
  private declarationCache: ToolDeclaration[] | null = null;

  constructor(
    tools: readonly Tool[] = [],
    /** Asked before a call that needs an account: a missing one is answered at once, before any approval. */
    private readonly integrationCheck: IntegrationCheck = () => null,
  ) {
    for (const tool of tools) this.register(tool);
  }

  register(tool: Tool): void {
    if (RESERVED_TOOL_NAMES.has(tool.name)) throw new Error(`"${tool.name}" is reserved for agent control`);
    if (this.tools.has(tool.name)) throw new Error(`tool "${tool.name}" is registered twice`);
    this.tools.set(tool.name, tool);
    this.declarationCache = null;
  }

  get(name: string): Tool | undefined {
    return this.tools.get(name);
  }

  list(): Tool[] {
    return [...this.tools.values()];
  }

  declarations(): ToolDeclaration[] {
    this.declarationCache ??= this.list().map((tool) => ({
      name: tool.name,
      description: tool.description,
      parameters: tool.hasSideEffects
        ? withMeta(toParametersSchema(tool.input))
        : toParametersSchema(tool.input),
    }));
    return this.declarationCache;
  }

  catalog(): ToolDescription[] {
    return this.list().map((tool) => ({
      name: tool.name,
      description: tool.description,
      category: tool.category,
      risk: tool.risk,
      hasSideEffects: tool.hasSideEffects,
      requires: tool.requires ?? null,
      input: toParametersSchema(tool.input),
      output: toJsonSchema(tool.output, 'output'),
    }));
  }

  /** The JSON Schema of a tool's own arguments (no meta-parameters), for an editor. */
  argsSchema(name: string): Record<string, unknown> {
    const tool = this.tools.get(name);
    return tool ? toParametersSchema(tool.input) : {};
  }

  /** Finds the tool and validates the model's arguments; failures are values the model can read. */
  check(name: string, args: unknown): ArgsCheck {
    const tool = this.tools.get(name);
    if (!tool) {
      return {
        ok: false,
        code: 'unknown_tool',
        message: `There is no tool named "${name}". Available tools: ${[...this.tools.keys()].join(', ')}.`,
      };
    }
    const unavailable = tool.requires ? this.integrationCheck(tool.requires) : null;
    if (unavailable) return { ok: false, code: 'not_connected', message: unavailable };
    // Side-effect tools carry the model's meta-parameters; they are checked and set aside, never passed on.
    const split = tool.hasSideEffects ? splitMeta(args) : { ok: true as const, args: asArgs(args), meta: {} };
    if (!split.ok) {
      return {
        ok: false,
        code: 'invalid_arguments',
        message: `Invalid meta-parameters for ${name}: ${split.message}`,
      };
    }
    const parsed = tool.input.safeParse(split.args);
    if (!parsed.success) {
      return {
        ok: false,
        code: 'invalid_arguments',
        message: `Invalid arguments for ${name}: ${describeIssues(parsed.error)}`,
      };
    }
    return { ok: true, tool, input: parsed.data, args: asArgs(parsed.data), meta: split.meta };
  }

  /**
   * Runs a checked call. Every failure comes back as a value the model can read; an unexpected one is
   * reported to `onUnexpected` and described generically, because its message may carry internals.
   */
  async run(
    check: Extract<ArgsCheck, { ok: true }>,
    context: ToolContext,
    onUnexpected: (error: unknown) => void = () => {},
  ): Promise<ToolOutcome> {
    try {
      const result = await check.tool.execute(check.input, context);
      return { ok: true, tool: check.tool, args: asArgs(check.input), result };
    } catch (error) {
      if (error instanceof ToolError) return { ok: false, code: 'tool_failed', message: error.message };
      onUnexpected(error);
      return { ok: false, code: 'tool_failed', message: `${check.tool.name} failed unexpectedly.` };
    }
  }
}

function asArgs(input: unknown): Record<string, unknown> {
  return typeof input === 'object' && input !== null ? (input as Record<string, unknown>) : {};
}

function withMeta(schema: Record<string, unknown>): Record<string, unknown> {
  const properties = (schema.properties ?? {}) as Record<string, unknown>;
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  return {
    ...schema,
    properties: { ...properties, ...META_JSON_SCHEMA },
    required: [...required, 'intent', 'confidence'],
    additionalProperties: false,
  };
}

function toParametersSchema(schema: z.ZodType): Record<string, unknown> {
  return toJsonSchema(schema, 'input');
}

function toJsonSchema(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  // Gemini reads the schema itself; the meta keyword only adds noise to every request.
  delete json.$schema;
  return json;
}
