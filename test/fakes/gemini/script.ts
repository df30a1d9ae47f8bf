import type { StreamHold } from './hold';
import type { FakeCall, FakeChunk, FakeStep } from './types';
import { errorBody } from './wire';

/** Builders for the common steps, so a test reads as the conversation it scripts. */

const PROMPT_TOKENS = 12;

export function textReply(text: string, opts: { chunks?: number; gapMs?: number } = {}): FakeStep {
  const pieces = splitInto(text, opts.chunks ?? 1);
  const chunks: FakeChunk[] = pieces.map((piece) => ({ text: piece }));
  const last = chunks.at(-1);
  if (last !== undefined) Object.assign(last, { finishReason: 'STOP', usage: usageFor(text) });
  return { kind: 'reply', chunks, gapMs: opts.gapMs };
}

/** The reply with its stream stopped before its chunk at `index` (from 0) until `hold` is released. */
export function heldBefore(index: number, hold: StreamHold, step: FakeStep): FakeStep {
  if (step.kind !== 'reply' && step.kind !== 'stall' && step.kind !== 'cut')
    throw new Error(`heldBefore(): a ${step.kind} step streams no chunks`);
  const chunk = step.chunks[index];
  if (chunk === undefined) throw new Error(`heldBefore(): the step has no chunk ${index}`);
  return { ...step, chunks: step.chunks.map((each) => (each === chunk ? { ...chunk, hold } : each)) };
}

export function callReply(
  name: string,
  args: Record<string, unknown>,
  opts: { id?: string; text?: string } = {},
): FakeStep {
  return callsReply([{ name, args, id: opts.id }], { text: opts.text });
}

export function callsReply(calls: FakeCall[], opts: { text?: string } = {}): FakeStep {
  const chunks: FakeChunk[] = [];
  if (opts.text !== undefined) chunks.push({ text: opts.text });
  chunks.push({
    calls: calls.map(withoutUndefinedId),
    finishReason: 'STOP',
    usage: usageFor(JSON.stringify(calls)),
  });
  return { kind: 'reply', chunks };
}

export function statusReply(
  status: number,
  opts: { message?: string; headers?: Record<string, string>; details?: unknown[] } = {},
): FakeStep {
  const body = errorBody(status, opts.message ?? `fake gemini: scripted status ${status}`);
  return {
    kind: 'status',
    status,
    headers: opts.headers,
    body: opts.details === undefined ? body : { error: { ...body.error, details: opts.details } },
  };
}

/** Splits on characters (not UTF-16 units) into at most `count` pieces of near-equal length. */
export function splitInto(text: string, count: number): string[] {
  const characters = Array.from(text);
  const pieces = Math.max(1, Math.min(count, characters.length));
  const size = Math.ceil(characters.length / pieces);
  const result: string[] = [];
  for (let start = 0; start < characters.length; start += size)
    result.push(characters.slice(start, start + size).join(''));
  return result.length > 0 ? result : [''];
}

function usageFor(text: string): { prompt: number; output: number } {
  return { prompt: PROMPT_TOKENS, output: Math.max(1, Math.ceil(text.length / 4)) };
}

function withoutUndefinedId(call: FakeCall): FakeCall {
  return call.id === undefined ? { name: call.name, args: call.args } : call;
}
