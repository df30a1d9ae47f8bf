import { z } from 'zod';
import type { AgentDefinition, AgentInputs } from './definition';

const MAX_TEXT = 20_000;

/** A form sends text: numbers and yes/no arrive as strings and are read as what the input declares. */
function inputType(type: AgentInputs[string]['type']): z.ZodType {
  switch (type) {
    case 'string':
      return z.string().trim().max(MAX_TEXT);
    case 'number':
      return z.coerce.number().refine(Number.isFinite, 'must be a number');
    case 'integer':
      return z.coerce.number().int();
    case 'boolean':
      return z.union([z.boolean(), z.enum(['true', 'false']).transform((text) => text === 'true')]);
  }
}

/** The agent's inputConfig as a schema: what a parent's call, the API and the form are checked against. */
export function inputSchema(definition: AgentDefinition): z.ZodType<Record<string, unknown>> {
  const shape: Record<string, z.ZodType> = {};
  for (const [name, input] of Object.entries(definition.inputConfig.inputs)) {
    const type = inputType(input.type);
    shape[name] = input.required
      ? input.type === 'string'
        ? (type as z.ZodString).min(1, `${name} is required`)
        : type
      : type.optional();
  }
  return z.strictObject(shape);
}

/** The same inputs as the JSON Schema of the tool a parent model reads (spec 001 §3: inputConfig → tool). */
export function inputParameters(definition: AgentDefinition): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const [name, input] of Object.entries(definition.inputConfig.inputs)) {
    properties[name] = { type: input.type, description: input.description };
    if (input.required) required.push(name);
  }
  return { type: 'object', properties, required, additionalProperties: false };
}
