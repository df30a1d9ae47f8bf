import type { ModelClient, ModelRequest, ModelStreamEvent } from '../../electron/llm/model-client';

export type ScriptedTurn = ModelStreamEvent[] | Error | ((request: ModelRequest) => ModelStreamEvent[]);

/** A model that plays back scripted turns with no latency and records every request it was sent. */
export class ScriptedModel implements ModelClient {
  readonly requests: ModelRequest[] = [];
  private readonly turns: ScriptedTurn[] = [];

  constructor(...turns: ScriptedTurn[]) {
    this.turns.push(...turns);
  }

  script(...turns: ScriptedTurn[]): this {
    this.turns.push(...turns);
    return this;
  }

  get remaining(): number {
    return this.turns.length;
  }

  async *stream(request: ModelRequest): AsyncIterable<ModelStreamEvent> {
    this.requests.push({ ...request, messages: structuredClone(request.messages) });
    const turn = this.turns.shift();
    if (turn === undefined) throw new Error('scripted model: no turn left for this request');
    if (turn instanceof Error) throw turn;
    const events = typeof turn === 'function' ? turn(request) : turn;
    for (const event of events) yield event;
  }
}

const usage = { inputTokens: 10, outputTokens: 5, totalTokens: 15 };

export function say(...chunks: string[]): ModelStreamEvent[] {
  return [
    ...chunks.map((text): ModelStreamEvent => ({ type: 'text', text })),
    { type: 'finish', finishReason: 'STOP', usage },
  ];
}

export function call(
  name: string,
  args: Record<string, unknown>,
  callId = `call-${name}`,
): ModelStreamEvent[] {
  return [
    { type: 'function_call', callId, name, args },
    { type: 'finish', finishReason: 'STOP', usage },
  ];
}

/** One turn that asks for several calls at once, in the order given. */
export function turnOf(...calls: ModelStreamEvent[][]): ModelStreamEvent[] {
  return [
    ...calls.flatMap((events) => events.filter((event) => event.type === 'function_call')),
    { type: 'finish', finishReason: 'STOP', usage },
  ];
}
