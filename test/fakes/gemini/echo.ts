import { textReply } from './script';
import type { FakeStep, GeminiContent, RecordedRequest } from './types';

/** What the standalone fake says when nothing is scripted: the user's last words back, streamed. */
export function echoStep(request: RecordedRequest): FakeStep {
  return textReply(echoText(request.body.contents ?? []), { chunks: 4, gapMs: 40 });
}

function echoText(contents: GeminiContent[]): string {
  const lastUser = contents.filter((content) => content.role !== 'model').at(-1);
  const parts = lastUser?.parts ?? [];
  const result = parts.find((part) => part.functionResponse !== undefined)?.functionResponse;
  if (result !== undefined) return `The tool ${result.name ?? 'call'} answered. Done.`;
  const text = parts
    .map((part) => part.text ?? '')
    .join(' ')
    .trim();
  return text === '' ? 'You said nothing.' : `You said: ${text}`;
}
