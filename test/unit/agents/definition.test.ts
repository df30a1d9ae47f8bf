import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fillTemplate, shownName } from '../../../electron/agents/definition';
import { importGeminiCliAgent } from '../../../electron/agents/gemini-cli-import';
import { MAX_MISTAKES_SHOWN, mistakesOf, parseAgentDefinition } from '../../../electron/agents/load';
import { agentCompletion } from '../../../electron/agents/output-contract';
import { phaseWords } from '../../../shared/phase-words';

/** The 1-based line of the first line of `text` that starts with `needle`. */
const lineOf = (text: string, needle: string) =>
  text.split('\n').findIndex((line) => line.startsWith(needle)) + 1;

/** Spec 001 §4's example, with its code tools swapped for Deputy's own. */
const INVESTIGATOR = `name: codebase_investigator
displayName: Codebase Investigator Agent
description: >
  The specialized tool for mailbox analysis and understanding who said what.
inputConfig:
  inputs:
    objective:
      description: A comprehensive and detailed description of the user's ultimate goal.
      type: string
      required: true
outputConfig:
  outputName: report
  description: The final investigation report as a JSON object.
  schema:
    type: object
    properties:
      findings: { type: array, items: { type: string } }
    required: [findings]
promptConfig:
  query: |
    Your task is to do a deep investigation to solve for the following user objective:
    <objective>
    \${objective}
    </objective>
  systemPrompt: |
    You are **Codebase Investigator**, a hyper-specialized AI agent...
modelConfig:
  model: "gemini-2.5-pro"
  temp: 0.1
  thinkingBudget: -1
toolConfig:
  tools:
    - gmail_search
    - gmail_thread_read
    - slack_read
    - search_memory
runConfig:
  max_time_minutes: 5
  max_turns: 15
`;

describe('AgentDefinition (spec 001)', () => {
  it("reads spec 001's codebase_investigator example with Deputy's tools", () => {
    const parsed = parseAgentDefinition(INVESTIGATOR, 'codebase_investigator.yaml');
    if (!parsed.ok) throw new Error(parsed.error.message);
    const { definition } = parsed;
    expect(definition.name).toBe('codebase_investigator');
    expect(definition.inputConfig.inputs.objective).toEqual({
      description: "A comprehensive and detailed description of the user's ultimate goal.",
      type: 'string',
      required: true,
    });
    expect(definition.modelConfig).toEqual({ model: 'gemini-2.5-pro', temp: 0.1, thinkingBudget: -1 });
    expect(definition.toolConfig.tools).toEqual([
      'gmail_search',
      'gmail_thread_read',
      'slack_read',
      'search_memory',
    ]);
    expect(definition.runConfig).toEqual({ max_time_minutes: 5, max_turns: 15 });
    expect(fillTemplate(definition.promptConfig.query, { objective: 'Who owes me a reply?' })).toContain(
      '<objective>\nWho owes me a reply?\n</objective>',
    );
  });

  it('reads the snake_case names of the Protobuf JSON form', () => {
    const json = JSON.stringify({
      name: 'proto_agent',
      display_name: 'Proto',
      description: 'Written from the proto.',
      input_config: { inputs: { topic: { description: 'A topic.', type: 'string', required: true } } },
      output_config: { output_name: 'answer', description: 'An answer.', schema: { type: 'object' } },
      prompt_config: { query: 'About ${topic}', system_prompt: 'Be brief.' },
      model_config: { model: 'gemini-2.5-flash', temperature: 0.3, top_p: 0.9, thinking_budget: 0 },
      tool_config: { tools: ['search_memory'] },
      run_config: { max_time_minutes: 2, max_turns: 4 },
    });
    const parsed = parseAgentDefinition(json, 'proto.json');
    if (!parsed.ok) throw new Error(parsed.error.message);
    expect(parsed.definition).toMatchObject({
      displayName: 'Proto',
      outputConfig: { outputName: 'answer' },
      promptConfig: { systemPrompt: 'Be brief.' },
      modelConfig: { temp: 0.3, top_p: 0.9, thinkingBudget: 0 },
      runConfig: { max_time_minutes: 2, max_turns: 4 },
    });
  });

  it('names the line of a YAML syntax error', () => {
    const broken = INVESTIGATOR.replace('  temp: 0.1', '  temp: 0.1\n top_p: 0.5');
    const parsed = parseAgentDefinition(broken, 'broken.yaml');
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.error.file).toBe('broken.yaml');
    expect(parsed.error.line).toBe(broken.split('\n').indexOf(' top_p: 0.5') + 1);
  });

  it('names the line of the field that does not fit the schema', () => {
    const wrong = INVESTIGATOR.replace('  temp: 0.1', '  temp: hot');
    const parsed = parseAgentDefinition(wrong, 'wrong.yaml');
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    const line = wrong.split('\n').findIndex((text) => text.includes('temp: hot')) + 1;
    expect(parsed.error).toMatchObject({ file: 'wrong.yaml', line });
    expect(parsed.error.message).toBe('`modelConfig.temp` should be a number, not text.');
  });

  it('refuses a model that is not a Gemini model id, on its line, as Settings does', () => {
    const wrong = INVESTIGATOR.replace('gemini-2.5-pro', 'gemini 2.5 pro?');
    const parsed = parseAgentDefinition(wrong, 'wrong.yaml');
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.error.line).toBe(lineOf(wrong, '  model: "gemini 2.5 pro?"'));
    expect(parsed.error.message).toContain('a Gemini model id, such as gemini-2.5-flash');
  });

  it('says what is wrong with a field in a sentence, with the file and the line', () => {
    const cases: { text: string; message: string; line: number }[] = [
      {
        text: INVESTIGATOR.replace(/description: >\n.*\n/, ''),
        message: 'The description is missing: add a line `description: …`.',
        line: 1,
      },
      {
        text: INVESTIGATOR.replace(/description: >\n.*\n/, 'description: 42\n'),
        message: 'The description should be text, not a whole number.',
        line: 3,
      },
      {
        text: INVESTIGATOR.replace(/description: >\n.*\n/, 'description: ""\n'),
        message: 'The description is empty: write something after `description:`.',
        line: 3,
      },
      {
        text: INVESTIGATOR.replace(/ {2}systemPrompt: \|\n.*\n/, ''),
        message: '`promptConfig.systemPrompt` is missing: add `systemPrompt: …` under `promptConfig:`.',
        line: lineOf(INVESTIGATOR, 'promptConfig:'),
      },
      {
        text: INVESTIGATOR.replace(/ {2}tools:\n(?: {4}- .*\n)+/, '  tools: gmail_search\n'),
        message: '`toolConfig.tools` should be a list (lines starting with `- `), not text.',
        line: lineOf(INVESTIGATOR, 'toolConfig:') + 1,
      },
      {
        text: INVESTIGATOR.replace('name: codebase_investigator', 'name: Codebase Investigator'),
        message:
          'The name “Codebase Investigator” cannot be used: use lowercase letters, digits and _ (2 to 63), starting with a letter.',
        line: 1,
      },
      {
        text: `${INVESTIGATOR}colour: blue\n`,
        message:
          'Deputy does not know the field `colour` in an agent definition: check its spelling, or remove it.',
        // The unknown field's own line.
        line: lineOf(`${INVESTIGATOR}colour: blue\n`, 'colour:'),
      },
      {
        text: INVESTIGATOR.replace('toolConfig:', 'toolconfig:'),
        message:
          'The toolConfig is missing: the file has `toolconfig`, spelled differently; write `toolConfig`.',
        line: lineOf(INVESTIGATOR, 'toolConfig:'),
      },
    ];
    for (const { text, message, line } of cases) {
      const parsed = parseAgentDefinition(text, 'agents/mine.yaml');
      expect(parsed.ok ? null : parsed.error).toEqual({ file: 'agents/mine.yaml', line, message });
    }
  });

  it('says each mistake of a file with several, in the file’s order, and how many more past the first eight', () => {
    const text = INVESTIGATOR.replace(/description: >\n.*\n/, '')
      .replace('toolConfig:', 'toolconfig:')
      .replace('  temp: 0.1', '  temp: hot');
    const parsed = parseAgentDefinition(text, 'agents/mine.yaml');
    if (parsed.ok) throw new Error('loaded');
    expect(mistakesOf(parsed)).toEqual([
      {
        file: 'agents/mine.yaml',
        line: 1,
        message: 'The description is missing: add a line `description: …`.',
      },
      {
        file: 'agents/mine.yaml',
        line: lineOf(text, '  temp:'),
        message: '`modelConfig.temp` should be a number, not text.',
      },
      // The key spelled differently is said once, as the field it stands for, not also as an unknown field.
      {
        file: 'agents/mine.yaml',
        line: lineOf(text, 'toolconfig:'),
        message:
          'The toolConfig is missing: the file has `toolconfig`, spelled differently; write `toolConfig`.',
      },
    ]);
    // Ten inputs, each with a type Deputy does not know: ten mistakes.
    const inputs = Array.from(
      { length: 10 },
      (_, n) => `    in_${n.toString()}: { description: d, type: nope }\n`,
    );
    const many = INVESTIGATOR.replace('  inputs:\n', `  inputs:\n${inputs.join('')}`);
    const capped = parseAgentDefinition(many, 'agents/many.yaml');
    if (capped.ok) throw new Error('loaded');
    expect(mistakesOf(capped)).toHaveLength(MAX_MISTAKES_SHOWN + 1);
    expect(mistakesOf(capped).at(-1)).toEqual({
      file: 'agents/many.yaml',
      line: null,
      message: '2 more mistakes are not listed: fix these, and Deputy will list the rest.',
    });
  });

  it('names the line in a JSON file too, and refuses a placeholder that is not an input', () => {
    const json = JSON.stringify(
      {
        name: 'typo',
        description: 'd',
        inputConfig: { inputs: { topic: { description: 't', type: 'string', required: true } } },
        outputConfig: { outputName: 'answer', description: 'a', schema: {} },
        promptConfig: { query: 'About ${topik}', systemPrompt: 's' },
        toolConfig: { tools: [] },
      },
      null,
      2,
    );
    const parsed = parseAgentDefinition(json, 'typo.json');
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.error.message).toContain('${topik}');
    expect(parsed.error.line).toBe(json.split('\n').findIndex((text) => text.includes('"query"')) + 1);
  });

  it('refuses a file nested thousands of levels deep in words, not with a stack overflow', () => {
    const deep = `${'['.repeat(5_000)}${']'.repeat(5_000)}`;
    const files: [text: string, file: string][] = [
      [`${INVESTIGATOR}extra: ${deep}\n`, 'deep.yaml'],
      [`{"name": "deep", "extra": ${deep}}`, 'deep.json'],
    ];
    for (const [text, file] of files) {
      const parsed = parseAgentDefinition(text, file);
      expect(parsed).toMatchObject({
        ok: false,
        error: {
          file,
          message: 'Its lists and maps are nested too deeply to read; an agent file needs only a few levels.',
        },
      });
    }
  });

  it('loads every built-in agent, each with an SOP whose phases only use granted tools', () => {
    const dir = join(process.cwd(), 'resources', 'agents');
    const files = readdirSync(dir);
    expect(files.sort()).toEqual([
      'inbox_triage.yaml',
      'meeting_scheduler.yaml',
      'researcher.yaml',
      'reviewer.yaml',
    ]);
    for (const file of files) {
      const parsed = parseAgentDefinition(readFileSync(join(dir, file), 'utf8'), file);
      if (!parsed.ok) throw new Error(`${file}:${parsed.error.line} ${parsed.error.message}`);
      expect(parsed.definition.sop?.phases.length).toBeGreaterThanOrEqual(2);
      expect(() => agentCompletion(parsed.definition)).not.toThrow();
    }
  });

  it('the built-in agents’ descriptions read the same to you and to the model, and their steps read as words', () => {
    // A description is shown in Settings → Agents and is also the description of the tool the model delegates by:
    // neither “the person” nor “you”, which the model would take for itself.
    const dir = join(process.cwd(), 'resources', 'agents');
    for (const file of readdirSync(dir)) {
      const parsed = parseAgentDefinition(readFileSync(join(dir, file), 'utf8'), file);
      if (!parsed.ok) throw new Error(file);
      expect(parsed.definition.description, file).not.toMatch(/\bthe (person|user)\b|\byour?\b/i);
      for (const phase of parsed.definition.sop?.phases ?? [])
        expect(phaseWords(phase.name), `${file}: ${phase.name}`).toMatch(/^[A-Z][a-z ]+$/);
    }
    expect(phaseWords('awaiting_user')).toBe('Wait for your approval');
    expect(phaseWords('find_people')).toBe('Find the people');
    // A phase of an agent of yours reads as its name, spaced out.
    expect(phaseWords('book_the_room')).toBe('Book the room');
  });
});

describe('the output contract', () => {
  const parsed = parseAgentDefinition(INVESTIGATOR, 'x.yaml');
  if (!parsed.ok) throw new Error('fixture');
  const contract = agentCompletion(parsed.definition);

  it('takes the output under outputName and checks it against the compiled JSON Schema', () => {
    expect(contract.parameters).toMatchObject({
      required: ['report'],
      properties: { report: { type: 'object' } },
    });
    expect(contract.output.safeParse({ report: { findings: ['Sam owes a reply'] } }).success).toBe(true);
    const bad = contract.output.safeParse({ report: { findings: 'one' } });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.path).toEqual(['report', 'findings']);
    expect(contract.output.safeParse({ findings: [] }).success).toBe(false);
  });

  it('fills processOutput as a template, never as code', () => {
    const withTemplate = { ...parsed.definition, processOutput: 'Found ${findings.length}: ${findings}' };
    const summary = agentCompletion(withTemplate).summarize?.({ report: { findings: ['a', 'b'] } });
    expect(summary).toBe('Found 2: [\n  "a",\n  "b"\n]');
    expect(fillTemplate('${constructor.name}', {})).toBe('');
  });
});

describe('Gemini CLI subagent import', () => {
  const known = new Set(['gmail_search', 'search_memory']);
  const markdown = `---
name: mail-scout
description: Finds mail about a topic.
tools: [gmail_search, read_file, search_memory]
model: gemini-2.5-flash
temperature: 0.4
max_turns: 6
timeout_mins: 3
---
You are Mail Scout. Search first, then answer.
`;

  it('converts front matter and body into a definition, leaving out tools Deputy does not have', () => {
    const imported = importGeminiCliAgent(markdown, 'mail-scout.md', known);
    if (!imported.ok) throw new Error(imported.error.message);
    expect(imported.droppedTools).toEqual(['read_file']);
    expect(imported.definition).toMatchObject({
      name: 'mail_scout',
      description: 'Finds mail about a topic.',
      toolConfig: { tools: ['gmail_search', 'search_memory'] },
      modelConfig: { model: 'gemini-2.5-flash', temp: 0.4 },
      runConfig: { max_turns: 6, max_time_minutes: 3 },
      promptConfig: { query: '${task}', systemPrompt: 'You are Mail Scout. Search first, then answer.' },
    });
  });

  it('names the line of a front-matter error', () => {
    const broken = markdown.replace('temperature: 0.4', 'temperature: [');
    const imported = importGeminiCliAgent(broken, 'broken.md', known);
    expect(imported.ok).toBe(false);
    if (imported.ok) return;
    expect(imported.error.file).toBe('broken.md');
    expect(imported.error.line).toBeGreaterThanOrEqual(6);
  });

  it('refuses a file without front matter', () => {
    const imported = importGeminiCliAgent('# Just notes', 'notes.md', known);
    expect(imported).toMatchObject({ ok: false, error: { line: 1 } });
  });
});

describe('the name an agent is shown by', () => {
  it('is its display name, or its name in words', () => {
    expect(shownName({ name: 'triage_inbox', displayName: 'Inbox triage' })).toBe('Inbox triage');
    expect(shownName({ name: 'triage_inbox' })).toBe('Triage inbox');
    expect(shownName({ name: 'lead' })).toBe('Lead');
    expect(shownName({ name: 'mail__v2_bot' })).toBe('Mail v2 bot');
  });
});
