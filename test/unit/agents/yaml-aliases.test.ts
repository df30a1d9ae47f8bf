import { stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import { importGeminiCliAgent } from '../../../electron/agents/gemini-cli-import';
import { parseAgentDefinition } from '../../../electron/agents/load';
import { agentDefinition, ALIAS_BOMB } from '../../support/agent-kit';

describe('YAML aliases in an agent file', () => {
  it('refuses a file whose aliases would multiply, naming the file and the first alias', () => {
    const parsed = parseAgentDefinition(ALIAS_BOMB, 'bomb.yaml');
    expect(parsed).toMatchObject({
      ok: false,
      error: { file: 'bomb.yaml', line: 2, message: expect.stringContaining('alias') },
    });
  });

  it('refuses an alias that comes before its anchor, with its line', () => {
    const parsed = parseAgentDefinition('name: x\ndescription: *nowhere\n', 'early.yaml');
    expect(parsed).toMatchObject({
      ok: false,
      error: { file: 'early.yaml', line: 2, message: expect.stringContaining('*nowhere') },
    });
  });

  it('still reads a file that uses an alias or two', () => {
    const text = stringify(agentDefinition({ name: 'few', tools: [] }))
      .replace('description: Test agent few.', 'description: &about Test agent few.')
      .replace('systemPrompt: You are few.', 'systemPrompt: *about');
    const parsed = parseAgentDefinition(text, 'few.yaml');
    if (!parsed.ok) throw new Error(parsed.error.message);
    expect(parsed.definition.promptConfig.systemPrompt).toBe('Test agent few.');
  });

  it('refuses the same in the front matter of a Gemini CLI subagent, counting lines from the file top', () => {
    const imported = importGeminiCliAgent(`---\n${ALIAS_BOMB}---\nYou are a bomb.\n`, 'bomb.md', new Set());
    expect(imported).toMatchObject({
      ok: false,
      error: { file: 'bomb.md', line: 3, message: expect.stringContaining('alias') },
    });
  });
});
