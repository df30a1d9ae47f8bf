import { z } from 'zod';
import { GeminiModelId } from '../../shared/contract/settings';
import { quoted } from '../../shared/quote-words';

/**
 * Spec 001's AgentDefinition, as Deputy reads it from a YAML or JSON file. Field names are the spec's
 * camelCase; the snake_case names of its Protobuf JSON form are accepted too (see `camelKeys`). Two things a
 * file cannot hold as code are data here: `outputConfig.schema` is a JSON Schema (compiled to a validator),
 * and `processOutput` is a template (`${field}` placeholders over the output), never a function.
 */

const NAME = /^[a-z][a-z0-9_]{1,62}$/;
export const AgentName = z
  .string()
  .regex(NAME, 'lowercase letters, digits and _ (2 to 63), starting with a letter');

const InputArgument = z.strictObject({
  description: z.string().min(1).max(1_000),
  type: z.enum(['string', 'number', 'integer', 'boolean']).default('string'),
  required: z.boolean().default(false),
});

const Phase = z.strictObject({
  name: AgentName,
  /** What the agent may call in this phase; empty: the model only thinks (LLM-only). */
  allowedTools: z.array(z.string().min(1).max(128)).max(64).default([]),
  description: z.string().max(1_000).optional(),
  /** Every side effect of this phase asks the person first, whatever the autonomy settings allow. */
  requiresApproval: z.boolean().default(false),
});

/**
 * Checks that hold before the agent leaves a phase (Keep-Up §7's qualityGates), in terms the engine can count:
 * how many tool calls of the phase succeeded.
 */
const QualityGate = z.strictObject({
  after: AgentName,
  check: z.enum(['has_results']),
  /** For `has_results`: how many successful tool calls the phase needs (1 by default). */
  min: z.number().int().min(1).max(50).default(1),
});

/** A role SOP (Keep-Up §7): ordered phases with the tools each allows, and quality gates between them. */
export const Sop = z
  .strictObject({
    profile: z.string().max(200).optional(),
    goal: z.string().max(1_000).optional(),
    phases: z.array(Phase).min(1).max(12),
    qualityGates: z.array(QualityGate).max(24).default([]),
  })
  .superRefine((sop, context) => {
    const names = sop.phases.map((phase) => phase.name);
    if (new Set(names).size !== names.length)
      context.addIssue({ code: 'custom', path: ['phases'], message: 'phase names must be unique' });
    sop.qualityGates.forEach((gate, index) => {
      if (!names.includes(gate.after))
        context.addIssue({
          code: 'custom',
          path: ['qualityGates', index, 'after'],
          message: `${quoted(gate.after)} is not one of the phases`,
        });
    });
  });
export type Sop = z.infer<typeof Sop>;

export const AgentDefinition = z
  .strictObject({
    name: AgentName,
    displayName: z.string().min(1).max(100).optional(),
    description: z.string().min(1).max(4_000),
    inputConfig: z.strictObject({ inputs: z.record(AgentName, InputArgument).default({}) }),
    outputConfig: z.strictObject({
      outputName: AgentName,
      description: z.string().min(1).max(2_000),
      /** A JSON Schema for the output; an object without `type` is taken as `{type: 'object'}`. */
      schema: z.record(z.string(), z.unknown()),
    }),
    processOutput: z.string().max(20_000).optional(),
    promptConfig: z.strictObject({
      query: z.string().min(1).max(20_000),
      systemPrompt: z.string().min(1).max(40_000),
    }),
    modelConfig: z
      .strictObject({
        model: GeminiModelId.optional(),
        temp: z.number().min(0).max(2).optional(),
        top_p: z.number().gt(0).max(1).optional(),
        /** Tokens the model may spend thinking; -1 lets it decide, 0 turns thinking off. */
        thinkingBudget: z.number().int().min(-1).max(100_000).optional(),
      })
      .optional(),
    toolConfig: z.strictObject({ tools: z.array(z.string().min(1).max(128)).max(100) }),
    runConfig: z
      .strictObject({
        max_time_minutes: z
          .number()
          .int()
          .min(1)
          .max(24 * 60)
          .optional(),
        max_turns: z.number().int().min(1).max(50).optional(),
      })
      .optional(),
    /** Deputy's extension: the role SOP whose phases gate the tools. */
    sop: Sop.optional(),
  })
  .superRefine((definition, context) => {
    for (const phase of definition.sop?.phases ?? []) {
      for (const tool of phase.allowedTools) {
        if (!definition.toolConfig.tools.includes(tool))
          context.addIssue({
            code: 'custom',
            path: ['sop', 'phases'],
            message: `phase ${quoted(phase.name)} allows ${tool}, which toolConfig.tools does not grant`,
          });
      }
    }
    for (const name of placeholders(definition.promptConfig.query)) {
      if (!(name in definition.inputConfig.inputs))
        context.addIssue({
          code: 'custom',
          path: ['promptConfig', 'query'],
          message: `\${${name}} is not one of inputConfig.inputs`,
        });
    }
  });
export type AgentDefinition = z.infer<typeof AgentDefinition>;
export type AgentInputs = AgentDefinition['inputConfig']['inputs'];

/**
 * The name a person knows the agent by, in every view and in the title of the conversation it starts: its
 * `displayName`, else its name in words ("triage_inbox" reads "Triage inbox").
 */
export function shownName(definition: Pick<AgentDefinition, 'name' | 'displayName'>): string {
  if (definition.displayName) return definition.displayName;
  const words = definition.name.replace(/_+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The Protobuf JSON names of spec 001 §6 and the camelCase names this schema uses. */
const PROTO_NAMES: Record<string, string> = {
  display_name: 'displayName',
  input_config: 'inputConfig',
  output_config: 'outputConfig',
  process_output: 'processOutput',
  prompt_config: 'promptConfig',
  model_config: 'modelConfig',
  tool_config: 'toolConfig',
  run_config: 'runConfig',
  output_name: 'outputName',
  system_prompt: 'systemPrompt',
  thinking_budget: 'thinkingBudget',
  temperature: 'temp',
  topP: 'top_p',
  maxTimeMinutes: 'max_time_minutes',
  maxTurns: 'max_turns',
  allowed_tools: 'allowedTools',
  quality_gates: 'qualityGates',
};

/** Containers whose keys are the author's own names (inputs, a JSON Schema): their keys are kept as written. */
const OPAQUE = new Set(['inputs', 'schema']);

/**
 * Renames the Protobuf JSON form's keys to this schema's, at every level but inside `inputs` and `schema`.
 * The spec itself mixes the two styles (`top_p` and `max_turns` stay snake_case in its TypeScript form).
 */
export function camelKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(camelKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => {
      const name = PROTO_NAMES[key] ?? key;
      if (!OPAQUE.has(name)) return [name, camelKeys(inner)];
      if (name === 'inputs' && inner && typeof inner === 'object' && !Array.isArray(inner))
        return [
          name,
          Object.fromEntries(Object.entries(inner).map(([input, arg]) => [input, camelKeys(arg)])),
        ];
      return [name, inner];
    }),
  );
}

/** The `${name}` placeholders of a template, in order of first appearance. */
export function placeholders(template: string): string[] {
  const found = [...template.matchAll(/\$\{\s*([A-Za-z_][\w.]*)\s*\}/g)].map((match) => match[1] ?? '');
  return [...new Set(found)];
}

/**
 * Fills `${name}` (and `${a.b}` for nested fields) from `values`; strings as they are, anything else as JSON.
 * A template is data, never code: there is no expression, only a path.
 */
export function fillTemplate(template: string, values: Record<string, unknown>): string {
  return template.replace(/\$\{\s*([A-Za-z_][\w.]*)\s*\}/g, (_whole, path: string) => {
    let value: unknown = values;
    for (const key of path.split('.')) {
      value = value && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
    }
    if (value === undefined || value === null) return '';
    return typeof value === 'string' ? value : JSON.stringify(value, null, 2);
  });
}
