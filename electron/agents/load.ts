import { isMap, isSeq, LineCounter, parseDocument, type Document } from 'yaml';
import type { z } from 'zod';
import { AgentDefinition, camelKeys } from './definition';

/** Why a definition file was skipped: where (file, 1-based line) and what, in words a person can act on. */
export interface AgentLoadError {
  file: string;
  line: number | null;
  message: string;
}

export type AgentParse = { ok: true; definition: AgentDefinition } | { ok: false; error: AgentLoadError };

/**
 * Reads one definition from YAML or JSON text (JSON is read by the same parser, so both get line numbers).
 * A syntax error names its line; a definition that parses but does not fit the schema names the line of the
 * field at fault.
 */
export function parseAgentDefinition(text: string, file: string): AgentParse {
  const lines = new LineCounter();
  const document = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  const syntax = document.errors[0];
  if (syntax) {
    const line = syntax.linePos?.[0]?.line ?? lines.linePos(syntax.pos[0]).line;
    return { ok: false, error: { file, line, message: firstLine(syntax.message) } };
  }
  return checkDefinition(document.toJS({ maxAliasCount: 50 }), file, (path) => lineOf(document, lines, path));
}

/** Checks a parsed value against the schema; `lineFor` says where a path is in the file, when it can. */
export function checkDefinition(
  value: unknown,
  file: string,
  lineFor: (path: readonly PropertyKey[]) => number | null = () => null,
): AgentParse {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return {
      ok: false,
      error: { file, line: 1, message: 'An agent definition must be a mapping of fields.' },
    };
  const parsed = AgentDefinition.safeParse(camelKeys(value));
  if (parsed.success) return { ok: true, definition: parsed.data };
  const issue = parsed.error.issues[0] as z.core.$ZodIssue;
  const path = issue.path.join('.') || '(definition)';
  return { ok: false, error: { file, line: lineFor(issue.path), message: `${path}: ${issue.message}` } };
}

/** Snake_case aliases, so a path in schema names finds the key the file wrote. */
const ALIASES: Record<string, string[]> = {
  displayName: ['display_name'],
  inputConfig: ['input_config'],
  outputConfig: ['output_config'],
  processOutput: ['process_output'],
  promptConfig: ['prompt_config'],
  modelConfig: ['model_config'],
  toolConfig: ['tool_config'],
  runConfig: ['run_config'],
  outputName: ['output_name'],
  systemPrompt: ['system_prompt'],
  thinkingBudget: ['thinking_budget'],
  temp: ['temperature'],
  allowedTools: ['allowed_tools'],
  qualityGates: ['quality_gates'],
};

/** The line of the deepest node along `path` that the file has (a missing field: its parent's line). */
function lineOf(document: Document, lines: LineCounter, path: readonly PropertyKey[]): number | null {
  let node: unknown = document.contents;
  let offset = rangeStart(node);
  for (const key of path) {
    let next: unknown;
    if (isMap(node)) {
      const names = [String(key), ...(ALIASES[String(key)] ?? [])];
      const pair = node.items.find((item) =>
        names.includes(String((item.key as { value?: unknown })?.value)),
      );
      next = pair?.value;
      offset = rangeStart(pair?.key) ?? offset;
    } else if (isSeq(node) && typeof key === 'number') {
      next = node.items[key];
    }
    if (next === undefined) break;
    node = next;
    offset = rangeStart(node) ?? offset;
  }
  return offset === null ? null : lines.linePos(offset).line;
}

function rangeStart(node: unknown): number | null {
  const range = (node as { range?: [number, number, number] } | null | undefined)?.range;
  return range ? range[0] : null;
}

function firstLine(message: string): string {
  return message.split('\n')[0] ?? message;
}
