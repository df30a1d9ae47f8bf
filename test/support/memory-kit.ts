import type { Host } from '../../electron/host/create-host';
import type { ModelRequest } from '../../electron/llm/model-client';
import { storeOf } from './durable-kit';

/** Stores each text as a memory the person confirmed, with ids m0, m1… */
export function rememberAll(host: Host, texts: readonly string[], now: Date): void {
  const store = storeOf(host);
  texts.forEach((text, index) =>
    store.memories.add(
      { id: `m${index}`, text, sourceRunId: null, origin: 'person', source: null, isConfirmed: true },
      now.toISOString(),
    ),
  );
}

/** The tool result the model read at the end of `request` (the previous turn's call). */
export function lastToolResult<T>(request: ModelRequest | undefined): T {
  const part = request?.messages.at(-1)?.parts.find((candidate) => candidate.kind === 'result');
  if (part?.kind !== 'result') throw new Error('the request ends with no tool result');
  return part.result as T;
}
