import type { ModelMessage, ModelPart } from '../llm/model-client';
import { asRecord } from '../store/json';

/**
 * The rolling summary of a compressed conversation: one short line per dropped message, made without
 * a model call so that the same messages always give the same summary.
 */

const TEXT_CHARS = 200;
const ARGS_CHARS = 120;
const RESULT_CHARS = 160;
const OMITTED = /^\((\d+) older lines? left out\)$/;

/**
 * `earlier` followed by a line for each of `dropped`, clipped to `maxChars` by keeping the newest lines
 * and saying how many older ones were left out.
 */
export function summariseMessages(earlier: string | null, dropped: ModelMessage[], maxChars: number): string {
  let omitted = 0;
  const lines: string[] = [];
  for (const line of earlier === null || earlier === '' ? [] : earlier.split('\n')) {
    const match = OMITTED.exec(line);
    if (match) omitted += Number(match[1]);
    else lines.push(line);
  }
  for (const message of dropped) lines.push(lineFor(message));
  return clipToNewest(lines, omitted, maxChars);
}

function lineFor(message: ModelMessage): string {
  if (message.role === 'user') {
    const results = message.parts.flatMap((part) => (part.kind === 'result' ? [resultLine(part)] : []));
    const text = textOf(message.parts);
    if (results.length === 0) return `user: ${clip(text, TEXT_CHARS)}`;
    return `tool results: ${results.join('; ')}${text === '' ? '' : ` (note: ${clip(text, TEXT_CHARS)})`}`;
  }
  const calls = message.parts.flatMap((part) =>
    part.kind === 'call' ? [`${part.name}(${clip(JSON.stringify(part.args), ARGS_CHARS)})`] : [],
  );
  const text = textOf(message.parts);
  const said = text === '' ? [] : [clip(text, TEXT_CHARS)];
  const called = calls.length === 0 ? [] : [`called ${calls.join(', ')}`];
  return `model: ${[...said, ...called].join(' — ') || '(no text)'}`;
}

function resultLine(part: Extract<ModelPart, { kind: 'result' }>): string {
  const error = part.result.error;
  if (typeof error === 'object' && error !== null) {
    const { code, message } = asRecord(error);
    const words = [code, message].filter((value) => typeof value === 'string').join(': ');
    return `${part.name} → error: ${clip(words === '' ? JSON.stringify(error) : words, RESULT_CHARS)}`;
  }
  return `${part.name} → ok: ${clip(JSON.stringify(part.result), RESULT_CHARS)}`;
}

function textOf(parts: ModelPart[]): string {
  return parts
    .flatMap((part) => (part.kind === 'text' ? [part.text] : []))
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
}

function clip(text: string, max: number): string {
  if (max <= 0) return '';
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  let cut = flat.slice(0, Math.max(0, max - 1));
  // Never end on half of a surrogate pair (an emoji cut in two is not valid text).
  if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1);
  return `${cut}…`;
}

function clipToNewest(lines: string[], alreadyOmitted: number, maxChars: number): string {
  let kept = 0;
  let body = '';
  while (kept < lines.length) {
    const line = lines[lines.length - 1 - kept] ?? '';
    const longer = kept === 0 ? line : `${line}\n${body}`;
    if (withOmitted(longer, alreadyOmitted + lines.length - kept - 1).length > maxChars) break;
    body = longer;
    kept++;
  }
  if (kept === 0 && lines.length > 0) {
    // Not even the newest line fits whole: keep what fits of it rather than nothing.
    const omitted = alreadyOmitted + lines.length - 1;
    const prefix = omitted > 0 ? `${omittedLine(omitted)}\n` : '';
    return (prefix + clip(lines.at(-1) ?? '', maxChars - prefix.length)).slice(0, maxChars);
  }
  return withOmitted(body, alreadyOmitted + lines.length - kept);
}

function withOmitted(body: string, omitted: number): string {
  if (omitted === 0) return body;
  return body === '' ? omittedLine(omitted) : `${omittedLine(omitted)}\n${body}`;
}

function omittedLine(count: number): string {
  return `(${count} older ${count === 1 ? 'line' : 'lines'} left out)`;
}
