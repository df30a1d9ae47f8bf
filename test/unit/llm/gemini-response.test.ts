import type { GenerateContentResponse } from '@google/genai';
import { describe, expect, it } from 'vitest';
import { isInventedCallId } from '../../../electron/llm/gemini-call-ids';
import { ResponseReader } from '../../../electron/llm/gemini-response';

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
