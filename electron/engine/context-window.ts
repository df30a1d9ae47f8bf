import type { ModelMessage, ModelPart } from '../llm/model-client';
import { summariseMessages } from './context-summary';

/**
 * Keeps a long run's conversation inside the model's context window (Keep-Up §5.11): measure the
 * prompt, and past a threshold replace the older messages with a short summary. Pure and
 * deterministic: a resumed run compresses exactly as the original did and sends the same request.
 */
export interface ContextConfig {
  /** The model's context window, in tokens. */
  maxTokens: number;
  /** Share of `maxTokens` past which the conversation is compressed (0.8 = 80 %). */
  threshold: number;
  /** How many of the latest user prompts survive a compression word for word. */
  preserveLastUserMessages: number;
  summaryMaxChars: number;
}

/** The spec's defaults; `maxTokens` comes from the model (`contextWindowOf`). */
export const DEFAULT_CONTEXT: Omit<ContextConfig, 'maxTokens'> = {
  threshold: 0.8,
  preserveLastUserMessages: 3,
  summaryMaxChars: 6000,
};

/** Heads the first message of a compressed conversation, so the model knows what it is reading. */
export const SUMMARY_HEADER = '[EARLIER IN THIS CONVERSATION — SUMMARISED]';

// Roles, part kinds and structure cost a few tokens per message beyond the text itself.
const MESSAGE_OVERHEAD_TOKENS = 4;

/** A rough count, about four characters a token, rounded up: close enough to decide when to compress. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** The estimated size of messages as the model will read them. */
export function estimateMessagesTokens(messages: ModelMessage[]): number {
  let total = 0;
  for (const message of messages) {
    total += MESSAGE_OVERHEAD_TOKENS;
    for (const part of message.parts) total += estimateTokens(partText(part));
  }
  return total;
}

function partText(part: ModelPart): string {
  switch (part.kind) {
    case 'text':
      return part.text;
    case 'call':
      // A thought signature travels with its call, so it counts against the window too.
      return part.name + JSON.stringify(part.args) + (part.signature ?? '');
    case 'result':
      return part.name + JSON.stringify(part.result);
  }
}

/**
 * The size of the next prompt. Usage-based when the model told us the prompt size at
 * `known.messageCount` messages (only what came after is estimated); a full estimate otherwise.
 * `known` describes the messages as they are now: after a compression the caller passes null until
 * the model reports a new size.
 */
export function promptTokens(input: {
  systemInstruction: string;
  messages: ModelMessage[];
  toolsTokens: number;
  known: { tokens: number; messageCount: number } | null;
}): number {
  const { known, messages } = input;
  if (known !== null && known.messageCount <= messages.length) {
    return known.tokens + estimateMessagesTokens(messages.slice(known.messageCount));
  }
  return estimateTokens(input.systemInstruction) + input.toolsTokens + estimateMessagesTokens(messages);
}

/** The spec's trigger: strictly more than `threshold` of the window. */
export function needsCompression(tokens: number, config: ContextConfig): boolean {
  return tokens > config.threshold * config.maxTokens;
}

export interface Compression {
  messages: ModelMessage[];
  /** The rolling summary without its header, kept in the checkpoint and passed back next time. */
  summary: string;
  droppedMessages: number;
}

/**
 * Replaces everything but the latest user prompts and the current turn (the last calls and their
 * results, at the end of the conversation) with a summary. The system instruction is not part of
 * `messages` and is never touched. Returns null when there is nothing to drop.
 */
export function compressContext(
  messages: ModelMessage[],
  earlierSummary: string | null,
  config: ContextConfig,
): Compression | null {
  const { history, summaryInMessages } = unfoldSummary(messages);
  const turnStart = currentTurnStart(history);
  const before = history.slice(0, turnStart);
  const currentTurn = history.slice(turnStart);
  const promptIndexes = before.flatMap((message, index) => (isPrompt(message) ? [index] : []));
  const keep = new Set(
    promptIndexes.slice(Math.max(0, promptIndexes.length - config.preserveLastUserMessages)),
  );
  const dropped = before.filter((_, index) => !keep.has(index));
  if (dropped.length === 0) return null;

  const summary = summariseMessages(earlierSummary ?? summaryInMessages, dropped, config.summaryMaxChars);
  const preservedTexts = before
    .filter((_, index) => keep.has(index))
    .flatMap((message) => message.parts.filter((part) => part.kind === 'text'));
  const head: ModelMessage = {
    role: 'user',
    parts: [{ kind: 'text', text: `${SUMMARY_HEADER}\n${summary}` }, ...preservedTexts],
  };
  return { messages: [head, ...currentTurn], summary, droppedMessages: dropped.length };
}

/**
 * A conversation compressed before starts with the summary message. Its summary part is the earlier
 * summary, and each prompt text after it stands for the user message it came from, so a second
 * compression treats them like any other prompt instead of nesting summaries.
 */
function unfoldSummary(messages: ModelMessage[]): {
  history: ModelMessage[];
  summaryInMessages: string | null;
} {
  const [first, ...rest] = messages;
  const head = first?.parts[0];
  if (first?.role !== 'user' || head?.kind !== 'text' || !head.text.startsWith(`${SUMMARY_HEADER}\n`)) {
    return { history: messages, summaryInMessages: null };
  }
  const prompts = first.parts.slice(1).map((part): ModelMessage => ({ role: 'user', parts: [part] }));
  return { history: [...prompts, ...rest], summaryInMessages: head.text.slice(SUMMARY_HEADER.length + 1) };
}

/**
 * Where the current turn starts: the last model message with calls, when only its results (or
 * nothing) follow it. A conversation that ends any other way, with a new prompt say, has no current
 * turn to keep: its last calls belong to an answer already given.
 */
function currentTurnStart(messages: ModelMessage[]): number {
  const last = messages.length - 1;
  if (last >= 0 && hasCalls(messages[last])) return last;
  if (last >= 1 && hasCalls(messages[last - 1]) && hasResults(messages[last])) return last - 1;
  return messages.length;
}

function hasCalls(message: ModelMessage | undefined): boolean {
  return message?.role === 'model' && message.parts.some((part) => part.kind === 'call');
}

function hasResults(message: ModelMessage | undefined): boolean {
  return message?.role === 'user' && message.parts.some((part) => part.kind === 'result');
}

/** A prompt is what the person wrote: user text, not a message of tool results. */
function isPrompt(message: ModelMessage): boolean {
  return (
    message.role === 'user' &&
    message.parts.some((part) => part.kind === 'text') &&
    !message.parts.some((part) => part.kind === 'result')
  );
}
