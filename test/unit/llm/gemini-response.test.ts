import type { GenerateContentResponse, Part } from '@google/genai';
import { describe, expect, it } from 'vitest';
import { isInventedCallId } from '../../../electron/llm/gemini-call-ids';
import { MAX_ANSWER_CHARS, ResponseReader } from '../../../electron/llm/gemini-response';

function chunkWith(
  parts: NonNullable<NonNullable<GenerateContentResponse['candidates']>[number]['content']>['parts'],
) {
  return { candidates: [{ content: { role: 'model', parts } }] } as GenerateContentResponse;
}

describe('ResponseReader: thought signatures', () => {
  it('puts the part thoughtSignature on the function_call event', () => {
    const events = new ResponseReader().read(
      chunkWith([{ functionCall: { id: 'c1', name: 'list_tasks', args: {} }, thoughtSignature: 'sig-1' }]),
    );
    expect(events).toEqual([
      { type: 'function_call', callId: 'c1', name: 'list_tasks', args: {}, signature: 'sig-1' },
    ]);
  });

  it('keeps the signature of a call whose id it invents, and adds none to an unsigned call', () => {
    const [signed, unsigned] = new ResponseReader().read(
      chunkWith([
        { functionCall: { name: 'add_task', args: { title: 'A' } }, thoughtSignature: 'sig-2' },
        { functionCall: { name: 'add_task', args: { title: 'B' } } },
      ]),
    );
    expect(signed).toMatchObject({ type: 'function_call', signature: 'sig-2' });
    expect(signed?.type === 'function_call' && isInventedCallId(signed.callId)).toBe(true);
    expect(unsigned).not.toHaveProperty('signature');
  });

  it('drops the signature that comes with a thought, which is no call; the thought is a thinking event', () => {
    const events = new ResponseReader().read(
      chunkWith([{ text: 'thinking…', thought: true, thoughtSignature: 's' }]),
    );
    expect(events).toEqual([{ type: 'thinking', text: 'thinking…' }]);
  });
});

describe('ResponseReader: call arguments', () => {
  it('keeps an object as it came and reads missing or null args as {}', () => {
    const events = new ResponseReader().read(
      chunkWith([
        { functionCall: { id: 'a', name: 'add_task', args: { title: 'A' } } },
        { functionCall: { id: 'b', name: 'list_tasks' } },
      ]),
    );
    expect(events).toEqual([
      { type: 'function_call', callId: 'a', name: 'add_task', args: { title: 'A' } },
      { type: 'function_call', callId: 'b', name: 'list_tasks', args: {} },
    ]);
  });

  it('records args that are not an object as {} and says what came instead', () => {
    // Off the wire, args can be any JSON value whatever the SDK's types say.
    const sent: unknown[] = [['Buy milk'], 'Buy milk', 42, true];
    const events = new ResponseReader().read(
      chunkWith(sent.map((args) => ({ functionCall: { id: 'c', name: 'add_task', args } }) as Part)),
    );
    expect(events.map((event) => event.type === 'function_call' && [event.args, event.argsSentAs])).toEqual([
      [{}, 'an array'],
      [{}, 'a string'],
      [{}, 'a number'],
      [{}, 'a boolean'],
    ]);
  });
});

describe('ResponseReader: an answer past MAX_ANSWER_CHARS', () => {
  it('cut while the model still thinks, says why in the answer instead of reading as one never begun', () => {
    const reader = new ResponseReader();
    const events = [
      ...reader.read(chunkWith([{ text: 'x'.repeat(MAX_ANSWER_CHARS - 10), thought: true }])),
      ...reader.read(chunkWith([{ text: 'y'.repeat(50), thought: true }])),
      ...reader.read(chunkWith([{ text: 'never read' }])),
    ];
    expect(events.map((event) => event.type)).toEqual(['thinking', 'thinking', 'text']);
    expect(events.at(-1)).toEqual({
      type: 'text',
      text: '[Deputy stopped reading this answer at 1,000,000 characters.]',
    });
    expect(reader.isFull).toBe(true);
    expect(reader.end()).toMatchObject({ type: 'finish', finishReason: 'MAX_TOKENS' });
  });
});

describe('ResponseReader: token counts', () => {
  // The counts come off the wire, so they are anything JSON can hold, not what the SDK's types promise.
  function usageOf(usageMetadata: Record<string, unknown>) {
    const reader = new ResponseReader();
    const chunk: unknown = {
      candidates: [{ content: { role: 'model', parts: [{ text: 'ok' }] }, finishReason: 'STOP' }],
      usageMetadata,
    };
    reader.read(chunk as GenerateContentResponse);
    const end = reader.end();
    return end.type === 'finish' ? end.usage : null;
  }

  it('reads a negative or missing count as 0, so it cannot take tokens off the hourly budget', () => {
    expect(usageOf({ promptTokenCount: -1e9, candidatesTokenCount: -5, totalTokenCount: -1e9 })).toEqual({
      inputTokens: 0,
      outputTokens: 0,
      totalTokens: 0,
    });
    expect(usageOf({ candidatesTokenCount: 7 })).toEqual({ inputTokens: 0, outputTokens: 7, totalTokens: 7 });
  });

  it('reads every count as a whole, finite number, and never a total below its parts', () => {
    expect(
      usageOf({ promptTokenCount: Number.NaN, candidatesTokenCount: 2.5, totalTokenCount: '12' }),
    ).toEqual({ inputTokens: 0, outputTokens: 3, totalTokens: 3 });
    expect(usageOf({ promptTokenCount: Infinity, candidatesTokenCount: 1, totalTokenCount: 1 })).toEqual({
      inputTokens: Number.MAX_SAFE_INTEGER,
      outputTokens: 1,
      totalTokens: Number.MAX_SAFE_INTEGER,
    });
  });
});
