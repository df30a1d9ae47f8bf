import { cleanText, LIMITS, type ConversationTurn, type MessageRecord } from '../../shared/contract';
import type { ModelMessage } from '../llm/model-client';

/**
 * The model sees the conversation the client sent, or else the thread's stored turns, capped the same way,
 * followed by the new prompt.
 */
export function buildRunMessages(
  prompt: string,
  conversation: readonly ConversationTurn[] | undefined,
  stored: readonly MessageRecord[],
  continued: ModelMessage[] | null = null,
): ModelMessage[] {
  const promptMessage: ModelMessage = { role: 'user', parts: [{ kind: 'text', text: prompt }] };
  // A run superseded while waiting for approval: the new prompt follows exactly what its model had seen.
  if (!conversation && continued) return [...continued, promptMessage];
  const turns: readonly ConversationTurn[] =
    conversation ??
    stored
      .map((message) => ({ role: message.role, text: cleanText(message.text, LIMITS.conversationTurnChars) }))
      .slice(-LIMITS.conversationTurns);
  return [
    ...turns.map((turn): ModelMessage => ({
      role: turn.role === 'user' ? 'user' : 'model',
      parts: [{ kind: 'text', text: turn.text }],
    })),
    { role: 'user', parts: [{ kind: 'text', text: prompt }] },
  ];
}

export function threadTitle(prompt: string): string {
  const firstLine = prompt.split('\n', 1)[0] ?? prompt;
  return cleanText(firstLine, 80);
}
