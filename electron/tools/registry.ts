import { quoteId } from '../../shared/contract/errors';
import { describeArgsIssues } from './args-words';
import type { ToolDeclaration } from '../llm/model-client';
import type { CallMeta } from '../policy/types';
import { guardedCall, type CallFailure } from './call-guard';
import { splitMeta } from './call-meta';
import {
  type Integration,
  type Reach,
  type Tool,
  type ToolCategory,
  type ToolContext,
  type RiskLevel,
  type UndoRecord,
  type CurrentRecord,
} from './tool';
import { parametersOf, toJsonSchema, withMeta } from './tool-schemas';

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
export const RESERVED_TOOL_NAMES = new Set([
  'complete_task',
  'request_clarification',
  'refuse',
  'state_intent',
]);

/**
 * A failed call, as the model reads it (`message`) and as the engine's retry layer needs it: the tool's own
 * `errorCode`, whether the failure is `transient` (worth retrying, with the same idempotency key) and how long
 * the service asked to wait.
 */
export type ToolFailure = {
  ok: false;
  code: 'unknown_tool' | 'invalid_arguments' | 'tool_failed';
  message: string;
} & CallFailure;

export type ToolOutcome =
  { ok: true; tool: Tool; args: Record<string, unknown>; result: Record<string, unknown> } | ToolFailure;

/**
 * What a look-up after a crash found for a call that was started but never committed: its effect (commit it),
 * no trace of it (ask the user), a tool that cannot look (ask the user), or a look-up that itself failed (retry
 * it when transient; never re-send in its place).
 */
export type ReconcileOutcome =
  | { kind: 'found'; result: Record<string, unknown> }
  | { kind: 'absent' }
  | { kind: 'unsupported' }
  | { kind: 'failed'; message: string; transient: boolean; retryAfterSeconds: number | null };

export interface ToolRegistryOptions {
  /**
   * How long one call (or one reconcile look-up) may take before it is stopped and reported as a transient
   * timeout, so a service that never answers cannot hold a run forever. 60 s by default.
   */
  callTimeoutMs?: number;
}

export const DEFAULT_CALL_TIMEOUT_MS = 60_000;

export type ArgsCheck =
  | { ok: true; tool: Tool; input: unknown; args: Record<string, unknown>; meta: CallMeta }
  | {
      ok: false;
      code: 'unknown_tool' | 'invalid_arguments' | 'not_connected' | 'not_allowed';
      message: string;
    };

/** A run's own limit on its tools (an agent's grant, its SOP phase): why `name` may not be called now, or null. */
export type ToolGate = (name: string) => string | null;

export class ToolRegistry {
  private readonly tools = new Map<string, Tool>();
  private declarationCache: ToolDeclaration[] | null = null;
  private readonly callTimeoutMs: number;

  constructor(
    tools: readonly Tool[] = [],
    /** Asked before a call that needs an account: a missing one is answered at once, before any approval. */
    private readonly integrationCheck: IntegrationCheck = () => null,
    options: ToolRegistryOptions = {},
  ) {
    const limit = options.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;
    if (!Number.isFinite(limit) || limit <= 0)
      throw new Error(`callTimeoutMs must be positive, got ${limit}`);
    this.callTimeoutMs = limit;
    for (const tool of tools) this.register(tool);
  }

  register(tool: Tool): void {
    if (RESERVED_TOOL_NAMES.has(tool.name)) throw new Error(`"${tool.name}" is reserved for agent control`);
    if (this.tools.has(tool.name)) throw new Error(`tool "${tool.name}" is registered twice`);
    this.tools.set(tool.name, tool);
    this.declarationCache = null;
  }

  /**
   * Replaces every tool of one MCP server with its current list (it said its tools changed, or it restarted).
   * A tool whose name another tool already has is left out and named in the answer, never registered over it.
   */
  replaceServerTools(server: string, tools: readonly Tool[]): string[] {
    return this.replaceWhere((tool) => tool.mcpServer === server, tools);
  }

  /** Replaces every agent tool with the catalog's current agents (a definition was added, changed or removed). */
  replaceAgentTools(tools: readonly Tool[]): string[] {
    return this.replaceWhere((tool) => tool.agent !== undefined, tools);
  }

  private replaceWhere(isOld: (tool: Tool) => boolean, tools: readonly Tool[]): string[] {
    for (const [name, tool] of this.tools) if (isOld(tool)) this.tools.delete(name);
    const skipped: string[] = [];
    for (const tool of tools) {
      if (this.tools.has(tool.name) || RESERVED_TOOL_NAMES.has(tool.name)) skipped.push(tool.name);
      else this.tools.set(tool.name, tool);
    }
    this.declarationCache = null;
    return skipped;
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
      parameters: tool.hasSideEffects ? withMeta(parametersOf(tool)) : parametersOf(tool),
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
      input: parametersOf(tool),
      output: toJsonSchema(tool.output, 'output'),
    }));
  }

  /** The JSON Schema of a tool's own arguments (no meta-parameters), for an editor. */
  argsSchema(name: string): Record<string, unknown> {
    const tool = this.tools.get(name);
    return tool ? parametersOf(tool) : {};
  }

  /** Finds the tool and validates the model's arguments; failures are values the model can read. */
  check(name: string, args: unknown, gate?: ToolGate): ArgsCheck {
    // A tool the run may not use is refused as if it were not there for it: nothing about it is checked or read.
    const refusal = gate?.(name);
    if (refusal) return { ok: false, code: 'not_allowed', message: refusal };
    const tool = this.tools.get(name);
    if (!tool) {
      return {
        ok: false,
        code: 'unknown_tool',
        message: `There is no tool named ${quoteId(name)}. Available tools: ${[...this.tools.keys()].join(', ')}.`,
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
        message: describeArgsIssues(name, split.error),
      };
    }
    // The values stay in the issues only to say what kind was sent (args-words.ts never quotes them).
    const parsed = tool.input.safeParse(split.args, { reportInput: true });
    if (!parsed.success) {
      return {
        ok: false,
        code: 'invalid_arguments',
        message: describeArgsIssues(name, parsed.error),
      };
    }
    return { ok: true, tool, input: parsed.data, args: asArgs(parsed.data), meta: split.meta };
  }

  /**
   * Runs a checked call within the time limit. Every failure comes back as a value the model can read and the
   * engine can classify; an unexpected one is reported to `onUnexpected` and described generically, because
   * its message may carry internals.
   */
  async run(
    check: Extract<ArgsCheck, { ok: true }>,
    context: ToolContext,
    onUnexpected: (error: unknown) => void = () => {},
  ): Promise<ToolOutcome> {
    const { tool } = check;
    const settled = await guardedCall({
      toolName: tool.name,
      purpose: 'execute',
      context,
      limitMs: tool.callTimeoutMs ?? this.callTimeoutMs,
      work: (limited) => tool.execute(check.input, limited),
      onUnexpected,
    });
    if (!settled.ok) return { ok: false, code: 'tool_failed', ...settled.failure };
    return { ok: true, tool, args: asArgs(check.input), result: settled.value };
  }

  /**
   * Everyone the call's effect would reach and what it changes, read before the policy decides, within the
   * same time limit. A tool without `reach` reaches exactly the addresses its arguments name.
   */
  async reach(
    check: Extract<ArgsCheck, { ok: true }>,
    context: ToolContext,
    onUnexpected: (error: unknown) => void = () => {},
  ): Promise<{ ok: true; reach: Reach } | { ok: false; message: string }> {
    const { tool } = check;
    const reach = tool.reach?.bind(tool);
    if (!reach) {
      const addresses = tool.recipients?.(check.input) ?? [];
      return {
        ok: true,
        reach: { recipients: addresses.map((address) => ({ address, role: 'named in the call' })) },
      };
    }
    const settled = await guardedCall({
      toolName: tool.name,
      purpose: 'reach',
      context,
      limitMs: this.callTimeoutMs,
      work: (limited) => reach(check.input, limited),
      onUnexpected,
    });
    return settled.ok ? { ok: true, reach: settled.value } : { ok: false, message: settled.failure.message };
  }

  /** Reverses a completed call through the tool's `undo`, within the same time limit as any call. */
  async undo(
    tool: Tool,
    record: UndoRecord,
    context: ToolContext,
    onUnexpected: (error: unknown) => void = () => {},
  ): Promise<{ ok: true; result: Record<string, unknown> } | { ok: false; failure: CallFailure }> {
    const undo = tool.undo?.bind(tool);
    if (!undo) throw new Error(`${tool.name} cannot be undone`);
    const settled = await guardedCall({
      toolName: tool.name,
      purpose: 'undo',
      context,
      limitMs: this.callTimeoutMs,
      work: (limited) => undo(record, { signal: limited.signal, now: limited.now }),
      onUnexpected,
    });
    return settled.ok ? { ok: true, result: settled.value } : settled;
  }

  /** Reads the thing a call changed as it is now (`Tool.current`), within the same time limit as any call. */
  async current(
    tool: Tool,
    record: CurrentRecord,
    context: ToolContext,
    onUnexpected: (error: unknown) => void = () => {},
  ): Promise<{ ok: true; value: unknown } | { ok: false; failure: CallFailure }> {
    const current = tool.current?.bind(tool);
    if (!current) throw new Error(`${tool.name} cannot read what it changed`);
    const settled = await guardedCall({
      toolName: tool.name,
      purpose: 'current',
      context,
      limitMs: this.callTimeoutMs,
      work: (limited) => current(record, { signal: limited.signal, now: limited.now }),
      onUnexpected,
    });
    return settled.ok ? { ok: true, value: settled.value } : settled;
  }

  /**
   * Looks for the effect a started-but-uncommitted call already made (DESIGN §5), within the same time limit.
   * It never runs the call: a tool without `reconcile` is 'unsupported', and a failed look-up is 'failed'.
   */
  async reconcile(
    check: Extract<ArgsCheck, { ok: true }>,
    context: ToolContext,
    onUnexpected: (error: unknown) => void = () => {},
  ): Promise<ReconcileOutcome> {
    const { tool } = check;
    const reconcile = tool.reconcile?.bind(tool);
    if (!reconcile) return { kind: 'unsupported' };
    const settled = await guardedCall({
      toolName: tool.name,
      purpose: 'reconcile',
      context,
      limitMs: this.callTimeoutMs,
      work: (limited) => reconcile(check.input, limited),
      onUnexpected,
    });
    if (!settled.ok) {
      const { message, transient, retryAfterSeconds } = settled.failure;
      return { kind: 'failed', message, transient, retryAfterSeconds };
    }
    return settled.value ? { kind: 'found', result: settled.value } : { kind: 'absent' };
  }
}

function asArgs(input: unknown): Record<string, unknown> {
  return typeof input === 'object' && input !== null ? (input as Record<string, unknown>) : {};
}
