import { LineCounter, parseDocument } from 'yaml';
import { z } from 'zod';
import type { AgentDefinition } from './definition';
import { checkDefinition, lineOf, yamlValue, type AgentParseFailure } from './load';

/**
 * Gemini CLI's local subagents are Markdown files: YAML front matter (name, description, tools, model,
 * temperature, max_turns, timeout_mins) and a body that is the system prompt. They take one free-text task and
 * answer in text, so the converted agent has one input (`task`) and one output (`result`). Tools Deputy does not
 * have are left out and named, never kept as names that would fail at run time.
 */
const FrontMatter = z.looseObject({
  kind: z.literal('local').optional(),
  name: z.string().min(1).max(100),
  display_name: z.string().max(100).optional(),
  description: z.string().min(1).max(4_000),
  tools: z.array(z.string()).max(100).optional(),
  model: z.string().max(100).optional(),
  temperature: z.number().min(0).max(2).optional(),
  max_turns: z.number().int().min(1).max(50).optional(),
  timeout_mins: z
    .number()
    .int()
    .min(1)
    .max(24 * 60)
    .optional(),
});

export type GeminiCliImport =
  | {
      ok: true;
      definition: AgentDefinition;
      droppedTools: string[];
      /** The file's line of the front matter's `name:` field, where a taken name is pointed to. */
      nameLine: number | null;
    }
  | AgentParseFailure;

const FENCE = /^---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

export function importGeminiCliAgent(
  markdown: string,
  file: string,
  knownTools: ReadonlySet<string>,
): GeminiCliImport {
  const fence = FENCE.exec(markdown);
  if (!fence)
    return fail(file, 1, 'A Gemini CLI subagent starts with YAML front matter between two --- lines.');
  const lines = new LineCounter();
  const document = parseDocument(fence[1] ?? '', { lineCounter: lines });
  const syntax = document.errors[0];
  // The front matter starts on the file's second line, after the opening ---.
  if (syntax) return fail(file, lines.linePos(syntax.pos[0]).line + 1, syntax.message.split('\n')[0] ?? '');
  const frontLine = lineOf(document, lines, ['name']);
  const value = yamlValue(document, lines, file, 2);
  if (!value.ok) return value;
  const front = FrontMatter.safeParse(value.value);
  if (!front.success) {
    const issue = front.error.issues[0];
    return fail(file, 2, `${issue?.path.join('.') || 'front matter'}: ${issue?.message ?? 'invalid'}`);
  }
  const meta = front.data;
  if (meta.kind === undefined && 'agent_card_url' in meta)
    return fail(file, 2, 'Remote (A2A) subagents cannot be imported; only local ones can.');
  const body = markdown.slice(fence[0].length).trim();
  const tools = meta.tools ?? [];
  const kept = tools.filter((tool) => knownTools.has(tool));
  const candidate = {
    name: meta.name.toLowerCase().replace(/[^a-z0-9_]/g, '_'),
    ...(meta.display_name && { displayName: meta.display_name }),
    description: meta.description,
    inputConfig: {
      inputs: { task: { description: 'What the agent should do, in full.', type: 'string', required: true } },
    },
    outputConfig: {
      outputName: 'result',
      description: 'The answer to the task.',
      schema: {
        type: 'object',
        properties: { answer: { type: 'string', description: 'The answer, in Markdown.' } },
        required: ['answer'],
      },
    },
    processOutput: '${answer}',
    promptConfig: { query: '${task}', systemPrompt: body || meta.description },
    ...((meta.model || meta.temperature !== undefined) && {
      modelConfig: {
        ...(meta.model && { model: meta.model }),
        ...(meta.temperature !== undefined && { temp: meta.temperature }),
      },
    }),
    toolConfig: { tools: kept },
    ...((meta.max_turns || meta.timeout_mins) && {
      runConfig: {
        ...(meta.max_turns && { max_turns: meta.max_turns }),
        ...(meta.timeout_mins && { max_time_minutes: meta.timeout_mins }),
      },
    }),
  };
  const checked = checkDefinition(candidate, file);
  if (!checked.ok) return checked;
  return {
    ok: true,
    definition: checked.definition,
    droppedTools: tools.filter((tool) => !knownTools.has(tool)),
    nameLine: frontLine === null ? null : frontLine + 1,
  };
}

function fail(file: string, line: number, message: string): GeminiCliImport {
  return { ok: false, error: { file, line, message } };
}
