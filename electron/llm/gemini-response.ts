import type { GenerateContentResponse, GenerateContentResponseUsageMetadata, Part } from '@google/genai';
import { callArgs } from './call-args';
import { inventCallId } from './gemini-call-ids';
import { ModelError, type FinishReason, type ModelStreamEvent, type ModelUsage } from './model-client';

/**
 * The most text (answer and thoughts) read from one answer. Gemini's largest output is about 65,000 tokens, a
 * quarter of this; a proxy or a broken stream could send without end, and a 20 MB answer took over 300 MB of the
 * host's memory, stored and sent to the window whole.
 */
export const MAX_ANSWER_CHARS = 1_000_000;
const CUT_NOTE = `\n\n[Deputy stopped reading this answer at ${MAX_ANSWER_CHARS.toLocaleString('en-US')} characters.]`;

/** Reads the chunks of one streamed Gemini answer into the engine's events, and judges how it ended. */
export class ResponseReader {
  private finishReason: string | null = null;
  private blockReason: string | null = null;
  private usage: ModelUsage | null = null;
  private hasContent = false;
  private textChars = 0;
  /** Past MAX_ANSWER_CHARS: the caller stops reading, and the answer ends as if Gemini had run out of tokens. */
  isFull = false;

  read(chunk: GenerateContentResponse): ModelStreamEvent[] {
    const blockReason = chunk.promptFeedback?.blockReason;
    if (blockReason !== undefined) this.blockReason = blockReason;
    // Gemini sends running totals, so the latest usage is the whole answer's.
    if (chunk.usageMetadata !== undefined) this.usage = toUsage(chunk.usageMetadata);
    const candidate = chunk.candidates?.[0];
    if (candidate === undefined) return [];
    if (candidate.finishReason !== undefined) this.finishReason = candidate.finishReason;
    const events = (candidate.content?.parts ?? []).flatMap((part) => this.readPart(part));
    if (events.length > 0) this.hasContent = true;
    return events;
  }

  /** The final event once the stream has closed cleanly; throws when the close means a failure. */
  end(): ModelStreamEvent {
    if (this.blockReason !== null) {
      throw new ModelError('blocked', `Gemini refused to answer this prompt (${this.blockReason}).`);
    }
    if (this.isFull) return { type: 'finish', finishReason: 'MAX_TOKENS', usage: this.usage };
    if (this.finishReason !== null) {
      return { type: 'finish', finishReason: toFinishReason(this.finishReason), usage: this.usage };
    }
    // Half an answer with no finishReason means the stream was cut, even if the close looked clean.
    if (this.hasContent) throw cutMidAnswer();
    return { type: 'finish', finishReason: 'MISSING', usage: this.usage };
  }

  private readPart(part: Part): ModelStreamEvent[] {
    if (this.isFull) return [];
    const text = this.within(part.text ?? '', part.thought === true);
    if (part.thought === true) {
      const thinking: ModelStreamEvent[] = text !== '' ? [{ type: 'thinking', text }] : [];
      // Cut while still thinking: the answer says why it stops, rather than read as one that never began.
      return this.isFull ? [...thinking, { type: 'text', text: CUT_NOTE.trim() }] : thinking;
    }
    const events: ModelStreamEvent[] = [];
    if (text !== '') events.push({ type: 'text', text });
    const call = part.functionCall;
    if (call !== undefined) {
      if (call.name === undefined || call.name === '') {
        throw new ModelError('bad_response', 'Gemini asked to call a tool without naming it.');
      }
      const callId = call.id !== undefined && call.id !== '' ? call.id : inventCallId();
      // The signature rides on the event into the stored call part, so it outlives this client.
      const signature = part.thoughtSignature ? { signature: part.thoughtSignature } : {};
      const { args, sentAs } = callArgs(call.args);
      events.push({
        type: 'function_call',
        callId,
        name: call.name,
        args,
        ...(sentAs !== undefined && { argsSentAs: sentAs }),
        ...signature,
      });
    }
    return events;
  }

  /** The part of `text` that fits in what is left of MAX_ANSWER_CHARS; cut answer text ends with a note saying so. */
  private within(text: string, isThought: boolean): string {
    const room = MAX_ANSWER_CHARS - this.textChars;
    this.textChars += text.length;
    if (text.length <= room) return text;
    this.isFull = true;
    return isThought ? text.slice(0, room) : `${text.slice(0, room)}${CUT_NOTE}`;
  }
}

export function cutMidAnswer(): ModelError {
  return new ModelError('unavailable', 'The connection to Gemini was cut mid-answer. Try again.');
}

function toFinishReason(reason: string): FinishReason {
  switch (reason) {
    case 'STOP':
    case 'MAX_TOKENS':
    case 'SAFETY':
      return reason;
    // The enum's zero value says no reason was given.
    case 'FINISH_REASON_UNSPECIFIED':
      return 'MISSING';
    default:
      return 'OTHER';
  }
}

function toUsage(metadata: GenerateContentResponseUsageMetadata): ModelUsage {
  const inputTokens = tokenCount(metadata.promptTokenCount);
  const outputTokens = tokenCount(metadata.candidatesTokenCount);
  // The total also holds thinking and tool-prompt tokens, so it is never less than the two counts above.
  const totalTokens = tokenCount(Math.max(tokenCount(metadata.totalTokenCount), inputTokens + outputTokens));
  return { inputTokens, outputTokens, totalTokens };
}

/**
 * A count as Gemini sent it, read as a whole number from 0 up. The hourly token budget adds these up, so one
 * negative count would take tokens off the hour and switch the budget off; a count too big to be real is kept
 * at the largest exact number, which leaves the budget spent rather than open.
 */
function tokenCount(value: unknown): number {
  if (typeof value !== 'number' || Number.isNaN(value)) return 0;
  return Math.min(Math.max(Math.ceil(value), 0), Number.MAX_SAFE_INTEGER);
}
