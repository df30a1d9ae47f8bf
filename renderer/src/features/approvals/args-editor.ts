import { fieldLabel, isMoment } from './field-words';

/**
 * The approval editor's model: one field per top-level argument the JSON Schema describes simply
 * (text, number, yes/no, a choice, a list of strings), and the conversions between args and form values.
 * Anything else stays as it is unless edited as raw JSON.
 */

export type EditorFieldKind = 'text' | 'number' | 'integer' | 'boolean' | 'choice' | 'list' | 'moment';

export interface EditorField {
  name: string;
  /** The name a person reads: "Due", "Starts", "In reply to (message)". */
  label: string;
  kind: EditorFieldKind;
  description: string | null;
  isRequired: boolean;
  isNullable: boolean;
  /** A long text gets a multi-line box. */
  isLong: boolean;
  choices: string[];
}

export type FormValue = string | boolean;
export type FormValues = Record<string, FormValue>;

export type ArgsResult =
  { ok: true; args: Record<string, unknown> } | { ok: false; field: string | null; message: string };

const LONG_TEXT_CHARS = 500;
const LONG_FIELD_NAMES = new Set(['body', 'text', 'notes', 'message', 'content']);

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The types a schema allows, looking through `anyOf`/`oneOf` and `type: [..]`. */
function typesOf(schema: Record<string, unknown>): {
  types: Set<string>;
  branches: Record<string, unknown>[];
} {
  const types = new Set<string>();
  const branches: Record<string, unknown>[] = [];
  const visit = (node: unknown) => {
    if (!isRecord(node)) return;
    const alternatives = node.anyOf ?? node.oneOf;
    if (Array.isArray(alternatives)) return alternatives.forEach(visit);
    const { type } = node;
    if (typeof type === 'string') types.add(type);
    else if (Array.isArray(type)) type.forEach((item) => typeof item === 'string' && types.add(item));
    else if (Array.isArray(node.enum)) types.add('string');
    else if (node.const === null) types.add('null');
    branches.push(node);
  };
  visit(schema);
  return { types, branches };
}

function fieldKind(types: Set<string>, branches: Record<string, unknown>[]): EditorFieldKind | null {
  const real = [...types].filter((type) => type !== 'null');
  if (real.length !== 1) return null;
  const [type] = real;
  const branch = branches.find((node) => node.type === type || Array.isArray(node.enum)) ?? {};
  switch (type) {
    case 'string':
      return Array.isArray(branch.enum) && branch.enum.every((item) => typeof item === 'string')
        ? 'choice'
        : 'text';
    case 'number':
      return 'number';
    case 'integer':
      return 'integer';
    case 'boolean':
      return 'boolean';
    case 'array':
      return isRecord(branch.items) && typesOf(branch.items).types.has('string') ? 'list' : null;
    default:
      return null;
  }
}

export function editorFields(argsSchema: Record<string, unknown>): EditorField[] {
  const properties = isRecord(argsSchema.properties) ? argsSchema.properties : {};
  const required = new Set(
    Array.isArray(argsSchema.required)
      ? argsSchema.required.filter((name): name is string => typeof name === 'string')
      : [],
  );
  const fields: EditorField[] = [];
  for (const [name, schema] of Object.entries(properties)) {
    if (!isRecord(schema)) continue;
    const { types, branches } = typesOf(schema);
    const description = typeof schema.description === 'string' ? schema.description : null;
    const baseKind = fieldKind(types, branches);
    if (baseKind === null) continue;
    const kind = baseKind === 'text' && isMoment(name, description) ? 'moment' : baseKind;
    const enumBranch = branches.find((node) => Array.isArray(node.enum));
    const maxLength = branches.map((node) => node.maxLength).find((max) => typeof max === 'number');
    fields.push({
      name,
      label: fieldLabel(name),
      kind,
      // A moment's schema words ("an ISO date or date-time") are for the model; the pickers say it plainly.
      description: kind === 'moment' ? 'Leave the time empty for the whole day.' : description,
      isRequired: required.has(name),
      isNullable: types.has('null'),
      isLong:
        kind === 'text' &&
        (LONG_FIELD_NAMES.has(name) || (typeof maxLength === 'number' && maxLength > LONG_TEXT_CHARS)),
      choices:
        kind === 'choice' && enumBranch && Array.isArray(enumBranch.enum)
          ? enumBranch.enum.filter((item): item is string => typeof item === 'string')
          : [],
    });
  }
  return fields;
}

export function toFormValues(fields: EditorField[], args: Record<string, unknown>): FormValues {
  const values: FormValues = {};
  for (const field of fields) {
    const value = args[field.name];
    if (field.kind === 'boolean') values[field.name] = value === true;
    else if (field.kind === 'list')
      values[field.name] = Array.isArray(value) ? value.map(String).join('\n') : '';
    else values[field.name] = value === undefined || value === null ? '' : String(value);
  }
  return values;
}

/** "a@x.io, b@x.io" or one per line. */
export const splitList = (text: string): string[] =>
  text
    .split(/[\n,]/)
    .map((item) => item.trim())
    .filter((item) => item.length > 0);

/**
 * The edited arguments: the original ones with each field's value put back in its type. An emptied optional
 * field is left out (or set to null, when the schema allows null and the call had a value there).
 */
export function toArgs(
  fields: EditorField[],
  values: FormValues,
  original: Record<string, unknown>,
): ArgsResult {
  const args: Record<string, unknown> = { ...original };
  const left = new Set<string>();
  for (const field of fields) {
    const value = values[field.name];
    if (field.kind === 'boolean') {
      if (value === true || field.name in original) args[field.name] = value === true;
      continue;
    }
    const text = typeof value === 'string' ? value : '';
    const isEmpty = field.kind === 'list' ? splitList(text).length === 0 : text.trim() === '';
    if (isEmpty && !field.isRequired) {
      const hadValue = original[field.name] !== undefined && original[field.name] !== null;
      if (field.isNullable && hadValue) args[field.name] = null;
      else left.add(field.name);
      continue;
    }
    switch (field.kind) {
      case 'number':
      case 'integer': {
        const number = Number(text.trim());
        if (text.trim() === '' || !Number.isFinite(number))
          return { ok: false, field: field.name, message: `${field.name}: enter a number` };
        if (field.kind === 'integer' && !Number.isInteger(number))
          return { ok: false, field: field.name, message: `${field.name}: enter a whole number` };
        args[field.name] = number;
        break;
      }
      case 'list':
        args[field.name] = splitList(text);
        break;
      default:
        args[field.name] = text;
    }
  }
  return { ok: true, args: Object.fromEntries(Object.entries(args).filter(([name]) => !left.has(name))) };
}

export function parseArgsJson(text: string): ArgsResult {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return {
      ok: false,
      field: null,
      message: `The JSON is not valid: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
  if (!isRecord(parsed))
    return { ok: false, field: null, message: 'The arguments must be a JSON object: { "name": value, … }' };
  return { ok: true, args: parsed };
}

/** Top-level arguments the fields do not cover: the editor says they can only be changed as JSON. */
export function argsOnlyInJson(fields: EditorField[], args: Record<string, unknown>): string[] {
  const covered = new Set(fields.map((field) => field.name));
  return Object.keys(args).filter((name) => !covered.has(name));
}
