import { z } from 'zod';
import { META_JSON_SCHEMA } from './call-meta';
import type { Tool } from './tool';

/** A side-effect tool's parameters with the model's meta-parameters added (intent and confidence required). */
export function withMeta(schema: Record<string, unknown>): Record<string, unknown> {
  const properties = (schema.properties ?? {}) as Record<string, unknown>;
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  return {
    ...schema,
    properties: { ...properties, ...META_JSON_SCHEMA },
    required: [...required, 'intent', 'confidence'],
    additionalProperties: false,
  };
}

/** The JSON Schema of a tool's own arguments: the one it was built from, else its zod input's. */
export function parametersOf(tool: Tool): Record<string, unknown> {
  return tool.parameters ?? toParametersSchema(tool.input);
}

function toParametersSchema(schema: z.ZodType): Record<string, unknown> {
  return toJsonSchema(schema, 'input');
}

/** A zod schema as JSON Schema (draft 2020-12), as the model and the API read it. */
export function toJsonSchema(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  // Gemini reads the schema itself; the meta keyword only adds noise to every request.
  delete json.$schema;
  return json;
}
