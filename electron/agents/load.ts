import { isAlias, isMap, isSeq, LineCounter, parseDocument, visit, type Alias, type Document } from 'yaml';
import { AgentDefinition, camelKeys } from './definition';
import { describeIssues } from './load-words';

/** Why a definition file was skipped: where (file, 1-based line) and what, in words a person can act on. */
export interface AgentLoadError {
  file: string;
  line: number | null;
  message: string;
}

/**
 * A file that does not load: its first mistake, and the others when it has several (a capped list, and how many
 * past it are not listed).
 */
export type AgentParseFailure = {
  ok: false;
  error: AgentLoadError;
  more?: AgentLoadError[];
  unlisted?: number;
};

export type AgentParse = { ok: true; definition: AgentDefinition } | AgentParseFailure;

/** A definition read from a file, with the line of its `name:` field (what a file giving a taken name names). */
export type AgentFileParse =
  { ok: true; definition: AgentDefinition; nameLine: number | null } | AgentParseFailure;

/** How many of a file's mistakes are listed; past them, one more line says how many are left. */
export const MAX_MISTAKES_SHOWN = 8;

/** Every mistake of a failure that is listed, first to last, then a line saying how many more are not. */
export function mistakesOf(failure: AgentParseFailure): AgentLoadError[] {
  const left = failure.unlisted ?? 0;
  const rest =
    left > 0
      ? [
          {
            file: failure.error.file,
            line: null,
            message: `${left.toString()} more ${left === 1 ? 'mistake is' : 'mistakes are'} not listed: fix these, and Deputy will list the rest.`,
          },
        ]
      : [];
  return [failure.error, ...(failure.more ?? []), ...rest];
}

/** How many mistakes a failure has, the unlisted ones too. */
export const mistakeCount = (failure: AgentParseFailure): number =>
  1 + (failure.more?.length ?? 0) + (failure.unlisted ?? 0);

/**
 * Reads one definition from YAML or JSON text (JSON is read by the same parser, so both get line numbers).
 * A syntax error names its line; a definition that parses but does not fit the schema names the line of the
 * field at fault.
 */
export function parseAgentDefinition(text: string, file: string): AgentFileParse {
  const lines = new LineCounter();
  const document = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  const syntax = document.errors[0];
  if (syntax) {
    const line = syntax.linePos?.[0]?.line ?? lines.linePos(syntax.pos[0]).line;
    const message = isTooDeep(syntax) ? TOO_DEEP : firstLine(syntax.message);
    return { ok: false, error: { file, line, message } };
  }
  const value = yamlValue(document, lines, file);
  if (!value.ok) return value;
  const lineFor = (path: readonly PropertyKey[]) => lineOf(document, lines, path);
  const checked = checkDefinition(value.value, file, lineFor);
  return checked.ok ? { ...checked, nameLine: lineFor(['name']) } : checked;
}

/**
 * What a file nested thousands of levels deep gets: the parser, which recurses, ran out of stack, and said so in
 * JavaScript's words ("Maximum call stack size exceeded").
 */
const TOO_DEEP = 'Its lists and maps are nested too deeply to read; an agent file needs only a few levels.';

function isTooDeep(error: unknown): boolean {
  return error instanceof RangeError || /call stack size/i.test(String((error as Error | null)?.message));
}

/** Uses of aliases (*name) a file may make, counted as the parser counts them (nested uses multiply). */
const MAX_ALIASES = 50;

export type YamlValue = { ok: true; value: unknown } | { ok: false; error: AgentLoadError };

/**
 * The document as plain data, or why it cannot be. Aliases are expanded with a cap because nested ones multiply:
 * a file of ten lines could otherwise fill the memory (a "billion laughs" file) and stop Deputy. `startLine` is
 * the file's line where the YAML begins (front matter starts on line 2).
 */
export function yamlValue(document: Document, lines: LineCounter, file: string, startLine = 1): YamlValue {
  try {
    return { ok: true, value: document.toJS({ maxAliasCount: MAX_ALIASES }) };
  } catch (error) {
    if (isTooDeep(error)) return { ok: false, error: { file, line: null, message: TOO_DEEP } };
    // Otherwise the parser throws here only over aliases: one whose anchor is not set before it, or too many uses.
    const { alias, isUnresolved } = aliasAtFault(document);
    const line = alias?.range ? lines.linePos(alias.range[0]).line + startLine - 1 : null;
    const message =
      alias && isUnresolved
        ? `The alias *${alias.source} comes before its anchor &${alias.source} is set.`
        : "The file's aliases (*name) repeat each other so often that, read out in full, it would be too big to load.";
    return { ok: false, error: { file, line, message } };
  }
}

/** The first alias whose anchor is not set before it, or else the first alias. */
function aliasAtFault(document: Document): { alias: Alias | undefined; isUnresolved: boolean } {
  const anchors = new Set<string>();
  let first: Alias | undefined;
  let unresolved: Alias | undefined;
  visit(document, (_key, node) => {
    if (isAlias(node)) {
      first ??= node;
      if (anchors.has(node.source)) return;
      unresolved = node;
      return visit.BREAK;
    }
    const anchor = (node as { anchor?: unknown }).anchor;
    if (typeof anchor === 'string') anchors.add(anchor);
  });
  return { alias: unresolved ?? first, isUnresolved: unresolved !== undefined };
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
  // With the value at fault in each issue, so a missing field can be told from one of the wrong kind.
  const parsed = AgentDefinition.safeParse(camelKeys(value), { reportInput: true });
  if (parsed.success) return { ok: true, definition: parsed.data };
  // In the file's order, so the person can go down it fixing each in turn.
  const mistakes = describeIssues(parsed.error.issues)
    .map(({ message, path }) => ({ file, line: lineFor(path), message }))
    .sort((a, b) => (a.line ?? Infinity) - (b.line ?? Infinity));
  const [first = { file, line: null, message: 'The definition does not fit.' }, ...others] = mistakes;
  const shown = others.slice(0, MAX_MISTAKES_SHOWN - 1);
  const unlisted = others.length - shown.length;
  return {
    ok: false,
    error: first,
    ...(shown.length > 0 && { more: shown }),
    ...(unlisted > 0 && { unlisted }),
  };
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

/** The line of the deepest node along `path` that the file has (a missing field: its parent's key's line). */
export function lineOf(document: Document, lines: LineCounter, path: readonly PropertyKey[]): number | null {
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
    // A block mapping or list starts on the line after its key: the key's line is the one to name.
    if (typeof key === 'number' || (!isMap(node) && !isSeq(node))) offset = rangeStart(node) ?? offset;
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
