import { asRecord } from '../../store/json';

/**
 * An MCP tool's answer (text, images, audio, embedded resources, links, structured content) turned into the JSON
 * object Gemini takes as a function response. Binary parts are described, not sent: the model gets their type
 * and size. Text is capped; when anything was cut, `truncated` says so and the full answer is kept apart for
 * the audit trail.
 */

/** The characters of text (and of structured content as JSON) the model gets from one call. */
export const RESULT_TEXT_CAP = 16_000;
/** The parts of one answer the model gets; more are counted, not listed. */
const MAX_PARTS = 50;

export interface MappedResult {
  output: Record<string, unknown>;
  isTruncated: boolean;
}

type Part = Record<string, unknown>;

export function mapMcpResult(raw: unknown): MappedResult {
  const result = asRecord(raw);
  const content = Array.isArray(result.content) ? result.content : [];
  let budget = RESULT_TEXT_CAP;
  let isTruncated = content.length > MAX_PARTS;
  const take = (text: string): string => {
    const kept = text.slice(0, Math.max(0, budget));
    budget -= kept.length;
    if (kept.length < text.length) isTruncated = true;
    return kept;
  };
  const parts = content.slice(0, MAX_PARTS).map((item) => mapPart(asRecord(item), take));
  const output: Record<string, unknown> = { content: parts };
  if (result.isError === true) output.isError = true;
  if (result.structuredContent !== undefined) {
    const json = JSON.stringify(result.structuredContent) ?? 'null';
    if (json.length <= budget) {
      output.structuredContent = result.structuredContent;
      budget -= json.length;
    } else {
      output.structuredContentText = take(json);
      isTruncated = true;
    }
  }
  if (content.length > MAX_PARTS) output.omittedParts = content.length - MAX_PARTS;
  if (isTruncated) output.truncated = true;
  return { output, isTruncated };
}

function mapPart(part: Part, take: (text: string) => string): Part {
  switch (part.type) {
    case 'text':
      return { type: 'text', text: take(asString(part.text)) };
    case 'image':
    case 'audio':
      return {
        type: part.type,
        mimeType: asString(part.mimeType),
        note: `${part.type === 'image' ? 'An image' : 'Audio'} of about ${base64Bytes(part.data)} bytes, not shown to the model.`,
      };
    case 'resource_link':
      return {
        type: 'resource_link',
        uri: take(asString(part.uri)),
        name: take(asString(part.name)),
        ...(typeof part.description === 'string' && { description: take(part.description) }),
      };
    case 'resource': {
      const resource = asRecord(part.resource);
      const uri = take(asString(resource.uri));
      if (typeof resource.text === 'string') return { type: 'resource', uri, text: take(resource.text) };
      return {
        type: 'resource',
        uri,
        mimeType: asString(resource.mimeType),
        note: `Binary content of about ${base64Bytes(resource.blob)} bytes, not shown to the model.`,
      };
    }
    default:
      return { type: 'unsupported', note: `A part of type "${take(asString(part.type)).slice(0, 50)}".` };
  }
}

function base64Bytes(value: unknown): number {
  return typeof value === 'string' ? Math.floor((value.length * 3) / 4) : 0;
}

function asString(value: unknown): string {
  return typeof value === 'string' ? value : '';
}
