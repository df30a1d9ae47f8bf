import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';

export interface TestAgent {
  name: string;
  displayName?: string;
  tools: string[];
  /** The output under `result`; by default `{ note: string }`. */
  schema?: Record<string, unknown>;
  sop?: Record<string, unknown>;
  modelConfig?: Record<string, unknown>;
  runConfig?: Record<string, unknown>;
}

/** A minimal definition: one required `task` input, output `result`, processOutput from `note`. */
export function agentDefinition(agent: TestAgent): Record<string, unknown> {
  return {
    name: agent.name,
    ...(agent.displayName && { displayName: agent.displayName }),
    description: `Test agent ${agent.name}.`,
    inputConfig: { inputs: { task: { description: 'The task.', type: 'string', required: true } } },
    outputConfig: {
      outputName: 'result',
      description: 'What it found.',
      schema: agent.schema ?? {
        type: 'object',
        properties: { note: { type: 'string', minLength: 1 } },
        required: ['note'],
        additionalProperties: false,
      },
    },
    processOutput: agent.schema ? undefined : 'Note: ${note}',
    promptConfig: { query: 'Do this: ${task}', systemPrompt: `You are ${agent.name}.` },
    toolConfig: { tools: agent.tools },
    ...(agent.sop && { sop: agent.sop }),
    ...(agent.modelConfig && { modelConfig: agent.modelConfig }),
    ...(agent.runConfig && { runConfig: agent.runConfig }),
  };
}

/** A fresh data folder whose agents/ holds these definitions as YAML (as the person would write them). */
export function dataDirWithAgents(...agents: TestAgent[]): string {
  const dataDir = mkdtempSync(join(tmpdir(), 'deputy-agents-'));
  mkdirSync(join(dataDir, 'agents'));
  for (const agent of agents)
    writeFileSync(join(dataDir, 'agents', `${agent.name}.yaml`), stringify(agentDefinition(agent)));
  return dataDir;
}

/** A "billion laughs" file: nine levels of nine aliases each would expand to 9^9 strings in memory. */
export const ALIAS_BOMB = `a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]
b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]
c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]
d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]
e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]
f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]
g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]
h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]
i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]
name: bomb
`;
