import { describe, expect, it } from 'vitest';
import { inventCallId, isInventedCallId } from '../../../electron/llm/gemini-call-ids';
import { toGeminiContents, toGeminiTools } from '../../../electron/llm/gemini-request';
import type { ModelMessage, ModelPart } from '../../../electron/llm/model-client';

describe('toGeminiContents', () => {
  it('maps text, calls and results, with roles', () => {
    const messages: ModelMessage[] = [
      { role: 'user', parts: [{ kind: 'text', text: 'Plan my day' }] },
      {
        role: 'model',
        parts: [{ kind: 'call', callId: 'g-1', name: 'calendar_search', args: { day: 'today' } }],
      },
      {
        role: 'user',
        parts: [{ kind: 'result', callId: 'g-1', name: 'calendar_search', result: { events: [] } }],
      },
    ];
    expect(toGeminiContents(messages)).toEqual([
      { role: 'user', parts: [{ text: 'Plan my day' }] },
      {
        role: 'model',
        parts: [{ functionCall: { id: 'g-1', name: 'calendar_search', args: { day: 'today' } } }],
      },
      {
        role: 'user',
        parts: [{ functionResponse: { id: 'g-1', name: 'calendar_search', response: { events: [] } } }],
      },
    ]);
  });

  it('sends a call whose recorded args are not an object with {}, as Gemini takes nothing else', () => {
    // A checkpoint refuses such a call, but the history that goes out is checked all the same.
    const args: unknown = ['Buy milk'];
    const [call] = toGeminiContents([
      { role: 'model', parts: [{ kind: 'call', callId: 'g-2', name: 'add_task', args } as ModelPart] },
    ]);
    expect(call?.parts).toEqual([{ functionCall: { id: 'g-2', name: 'add_task', args: {} } }]);
  });

  it('leaves invented ids out of calls and results', () => {
    const callId = inventCallId();
    const [call, result] = toGeminiContents([
      { role: 'model', parts: [{ kind: 'call', callId, name: 'list_tasks', args: {} }] },
      { role: 'user', parts: [{ kind: 'result', callId, name: 'list_tasks', result: { tasks: [] } }] },
    ]);
    expect(call?.parts).toEqual([{ functionCall: { name: 'list_tasks', args: {} } }]);
    expect(result?.parts).toEqual([{ functionResponse: { name: 'list_tasks', response: { tasks: [] } } }]);
  });

  it('drops empty text and messages left with no parts', () => {
    const contents = toGeminiContents([
      { role: 'user', parts: [{ kind: 'text', text: '' }] },
      { role: 'user', parts: [] },
      { role: 'user', parts: [{ kind: 'text', text: 'Hi' }] },
    ]);
    expect(contents).toEqual([{ role: 'user', parts: [{ text: 'Hi' }] }]);
  });

  it('sends the thought signature stored in a call part, and none for a call without one', () => {
    const [content] = toGeminiContents([
      {
        role: 'model',
        parts: [
          { kind: 'call', callId: 'g-2', name: 'save_memory', args: {}, signature: 'sig-2' },
          { kind: 'call', callId: 'g-3', name: 'list_tasks', args: {} },
        ],
      },
    ]);
    expect(content?.parts).toEqual([
      { functionCall: { id: 'g-2', name: 'save_memory', args: {} }, thoughtSignature: 'sig-2' },
      { functionCall: { id: 'g-3', name: 'list_tasks', args: {} } },
    ]);
  });

  it('keeps a signature on a call whose id was invented', () => {
    const callId = inventCallId();
    const [content] = toGeminiContents([
      { role: 'model', parts: [{ kind: 'call', callId, name: 'list_tasks', args: {}, signature: 'sig-x' }] },
    ]);
    expect(content?.parts).toEqual([
      { functionCall: { name: 'list_tasks', args: {} }, thoughtSignature: 'sig-x' },
    ]);
  });
});

describe('toGeminiTools', () => {
  it('sends nothing when there are no tools', () => {
    expect(toGeminiTools([])).toBeUndefined();
  });

  it('passes the JSON Schema as parametersJsonSchema', () => {
    const parameters = { type: 'object', properties: {} };
    expect(toGeminiTools([{ name: 'list_tasks', description: 'Lists tasks', parameters }])).toEqual([
      {
        functionDeclarations: [
          { name: 'list_tasks', description: 'Lists tasks', parametersJsonSchema: parameters },
        ],
      },
    ]);
  });
});

describe('invented call ids', () => {
  it('are unique and recognisable, and a model id is not mistaken for one', () => {
    const first = inventCallId();
    expect(first).not.toBe(inventCallId());
    expect(isInventedCallId(first)).toBe(true);
    expect(isInventedCallId('h8f2kq1z')).toBe(false);
  });
});
