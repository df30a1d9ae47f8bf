import type { ModelClient, ModelRequest, ModelStreamEvent } from '../../electron/llm/model-client';
import { ModelError } from '../../electron/llm/model-client';

interface Held {
  prompt: string;
  answer: (text: string) => void;
}

/**
 * A model that holds every request until the test answers it, so a test can keep runs busy and see who waits.
 * It counts how many requests it held at once; a cancelled run's request gives up like Gemini's does.
 */
export class GatedModel implements ModelClient {
  readonly held: Held[] = [];
  /** The prompts the model was asked about, in the order it was asked. */
  readonly asked: string[] = [];
  maxAtOnce = 0;

  async *stream(request: ModelRequest): AsyncIterable<ModelStreamEvent> {
    const prompt = lastPrompt(request);
    this.asked.push(prompt);
    const text = await new Promise<string>((resolve, reject) => {
      const entry: Held = { prompt, answer: resolve };
      this.held.push(entry);
      this.maxAtOnce = Math.max(this.maxAtOnce, this.held.length);
      request.signal.addEventListener('abort', () => {
        this.drop(entry);
        reject(new ModelError('cancelled', 'Stopped.'));
      });
    });
    yield { type: 'text', text };
    yield {
      type: 'finish',
      finishReason: 'STOP',
      usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
    };
  }

  /** Answers the held request about `prompt`. */
  answer(prompt: string, text = `Answered ${prompt}`): void {
    const entry = this.held.find((candidate) => candidate.prompt === prompt);
    if (!entry) throw new Error(`no request about "${prompt}" is held (held: ${this.prompts().join(', ')})`);
    this.drop(entry);
    entry.answer(text);
  }

  prompts(): string[] {
    return this.held.map((entry) => entry.prompt);
  }

  private drop(entry: Held): void {
    const at = this.held.indexOf(entry);
    if (at !== -1) this.held.splice(at, 1);
  }
}

/** The text of the request's last user message ('' when that message carries only tool results). */
export function lastPrompt(request: ModelRequest): string {
  const last = request.messages.findLast((message) => message.role === 'user');
  const part = last?.parts.find((candidate) => candidate.kind === 'text');
  return part?.kind === 'text' ? part.text : '';
}

/** Waits until `check` holds, polling the event loop; fails after `ms`. */
export async function until(check: () => boolean, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out waiting for a condition');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
