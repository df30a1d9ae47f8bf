import type { RecordedRequest } from '../fakes/gemini/types';

/** A call the scripted model made earlier in the run, and the answer it got (if any yet). */
export interface SeenCall {
  id: string;
  name: string;
  args: Record<string, unknown>;
  response: Record<string, unknown> | null;
}

/** What a Gemini request shows the model: its instruction, the person's prompt, its calls and their answers. */
export interface Conversation {
  systemText: string;
  /** The last text the person wrote (this run's prompt). */
  prompt: string;
  calls: SeenCall[];
  /** Everything the model has read: tool answers and the system instruction, as one string. */
  readText: string;
}

/** One step of a plan: the call to make next, judged from the conversation, or null to skip the step. */
export interface PlannedCall {
  name: string;
  args: Record<string, unknown>;
}
export type Step = (conversation: Conversation) => PlannedCall | null;

export function readConversation(request: RecordedRequest): Conversation {
  const contents = request.body.contents ?? [];
  const calls: SeenCall[] = [];
  const answers = new Map<string, Record<string, unknown>>();
  let prompt = '';
  for (const content of contents) {
    for (const part of content.parts ?? []) {
      if (part.functionCall?.name) {
        calls.push({
          id: part.functionCall.id ?? '',
          name: part.functionCall.name,
          args: part.functionCall.args ?? {},
          response: null,
        });
      }
      if (part.functionResponse)
        answers.set(
          part.functionResponse.id ?? part.functionResponse.name ?? '',
          part.functionResponse.response ?? {},
        );
      if (content.role === 'user' && typeof part.text === 'string' && !part.text.startsWith('['))
        prompt = part.text;
    }
  }
  for (const call of calls) call.response = answers.get(call.id) ?? null;
  const systemText = (request.body.systemInstruction?.parts ?? []).map((part) => part.text ?? '').join('\n');
  const readText = [systemText, ...calls.map((call) => JSON.stringify(call.response ?? {}))].join('\n');
  return { systemText, prompt, calls, readText };
}

/** Letters and digits only, lower case: how an injection is recognised inside JSON-escaped tool answers. */
export const squash = (text: string): string => text.toLowerCase().replace(/[^a-z0-9]/g, '');

/** The answer of the latest call to a tool, or null. */
export function answerOf(conversation: Conversation, tool: string): Record<string, unknown> | null {
  return conversation.calls.filter((call) => call.name === tool).at(-1)?.response ?? null;
}

/** The first match of a pattern in everything the model read, or null. */
export function findInRead(conversation: Conversation, pattern: RegExp): string | null {
  return pattern.exec(conversation.readText)?.[1] ?? null;
}
