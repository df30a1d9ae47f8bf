import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { z } from 'zod';
import type { CompletionContract } from '../engine/completion';
import { fillTemplate, type AgentDefinition } from './definition';

const ajv = new Ajv({ allErrors: true, strict: false });
const compiled = new WeakMap<AgentDefinition, ValidateFunction>();

/** The JSON Schema of `complete_task`'s arguments: the agent's output under its `outputName` (spec 001). */
export function completeTaskSchema(definition: AgentDefinition): Record<string, unknown> {
  const { outputName, description, schema } = definition.outputConfig;
  const output =
    'type' in schema || '$ref' in schema || 'anyOf' in schema ? schema : { type: 'object', ...schema };
  return {
    type: 'object',
    properties: { [outputName]: { ...output, description } },
    required: [outputName],
    additionalProperties: false,
  };
}

/** Compiles the schema once per definition; a schema ajv cannot compile is reported as the definition's error. */
export function compileOutput(definition: AgentDefinition): ValidateFunction {
  let validate = compiled.get(definition);
  if (!validate) {
    validate = ajv.compile(completeTaskSchema(definition));
    compiled.set(definition, validate);
  }
  return validate;
}

/**
 * The completion contract of an agent: `complete_task({[outputName]: output})`, checked against the compiled
 * schema; the run's summary is `processOutput` filled from the output, or the output as JSON.
 */
export function agentCompletion(definition: AgentDefinition): CompletionContract {
  const validate = compileOutput(definition);
  const { outputName } = definition.outputConfig;
  const output = z.record(z.string(), z.unknown()).superRefine((value, context) => {
    if (validate(value)) return;
    for (const error of validate.errors ?? []) context.addIssue({ code: 'custom', ...issueOf(error) });
  });
  return {
    output,
    description: definition.outputConfig.description,
    parameters: completeTaskSchema(definition),
    summarize: (value) => summarize(definition, value[outputName]),
  };
}

export function summarize(definition: AgentDefinition, output: unknown): string {
  if (definition.processOutput) {
    const values =
      output && typeof output === 'object' && !Array.isArray(output) ? output : { value: output };
    return fillTemplate(definition.processOutput, values as Record<string, unknown>).trim();
  }
  return typeof output === 'string' ? output : JSON.stringify(output, null, 2);
}

function issueOf(error: ErrorObject): { path: string[]; message: string } {
  const path = error.instancePath.split('/').filter(Boolean);
  const extra =
    error.keyword === 'additionalProperties'
      ? ` (${String((error.params as { additionalProperty?: unknown }).additionalProperty)})`
      : '';
  return { path, message: `${error.message ?? 'does not fit'}${extra}` };
}
