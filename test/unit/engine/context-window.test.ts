import { describe, expect, it } from 'vitest';
import {
  DEFAULT_CONTEXT,
  SUMMARY_HEADER,
  compressContext,
  estimateMessagesTokens,
  estimateTokens,
  needsCompression,
  promptTokens,
  type ContextConfig,
} from '../../../electron/engine/context-window';
import type { ModelMessage, ModelPart } from '../../../electron/llm/model-client';

const SYSTEM = 'You are Deputy. '.repeat(50);
const TOOLS_TOKENS = 800;

function prompt(text: string): ModelMessage {
  return { role: 'user', parts: [{ kind: 'text', text }] };
}

function calls(...names: Array<[id: string, name: string, args?: Record<string, unknown>]>): ModelMessage {
  return {
    role: 'model',
    parts: names.map(([callId, name, args]) => ({ kind: 'call', callId, name, args: args ?? {} })),
  };
}

function results(...items: Array<[id: string, name: string, result: Record<string, unknown>]>): ModelMessage {
  return {
    role: 'user',
    parts: items.map(([callId, name, result]) => ({ kind: 'result', callId, name, result })),
  };
}

function answer(text: string): ModelMessage {
  return { role: 'model', parts: [{ kind: 'text', text }] };
}

/** A small seeded generator, so the long conversation is the same on every run. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function textsOf(message: ModelMessage | undefined): string[] {
  return (message?.parts ?? []).flatMap((part) => (part.kind === 'text' ? [part.text] : []));
}

/** Every call is answered in the next message and every result answers a call of the message before. */
function expectPaired(messages: ModelMessage[]): void {
  messages.forEach((message, index) => {
    const callIds = message.parts.flatMap((part) => (part.kind === 'call' ? [part.callId] : []));
    const next = messages[index + 1];
    const answered = (next?.parts ?? []).flatMap((part) => (part.kind === 'result' ? [part.callId] : []));
    if (callIds.length > 0 && next !== undefined) expect(answered).toEqual(callIds);
    const resultIds = message.parts.flatMap((part) => (part.kind === 'result' ? [part.callId] : []));
    if (resultIds.length > 0) {
      const previous = messages[index - 1];
      const asked = (previous?.parts ?? []).flatMap((part) => (part.kind === 'call' ? [part.callId] : []));
      expect(asked).toEqual(resultIds);
    }
  });
}

const config: ContextConfig = { maxTokens: 40_000, ...DEFAULT_CONTEXT };

function sizeOf(messages: ModelMessage[]): number {
  return promptTokens({ systemInstruction: SYSTEM, messages, toolsTokens: TOOLS_TOKENS, known: null });
}

describe('estimates', () => {
  it('counts about four characters a token, rounded up', () => {
    expect(estimateTokens('')).toBe(0);
    expect(estimateTokens('abcd')).toBe(1);
    expect(estimateTokens('abcde')).toBe(2);
    expect(estimateTokens('x'.repeat(4000))).toBe(1000);
  });

  it('counts texts, calls with their signatures, and results', () => {
    const bare = estimateMessagesTokens([calls(['c1', 'list_tasks', { day: 'today' }])]);
    const signed: ModelMessage = {
      role: 'model',
      parts: [
        {
          kind: 'call',
          callId: 'c1',
          name: 'list_tasks',
          args: { day: 'today' },
          signature: 'x'.repeat(400),
        },
      ],
    };
    expect(estimateMessagesTokens([signed])).toBe(bare + 100);
    const withResult = estimateMessagesTokens([results(['c1', 'list_tasks', { tasks: 'y'.repeat(4000) }])]);
    expect(withResult).toBeGreaterThan(1000);
    expect(estimateMessagesTokens([prompt('a'.repeat(40)), prompt('b'.repeat(40))])).toBe(
      2 * estimateMessagesTokens([prompt('a'.repeat(40))]),
    );
  });
});

describe('promptTokens', () => {
  const messages = [
    prompt('Plan my day'),
    calls(['c1', 'calendar_search']),
    results(['c1', 'calendar_search', {}]),
  ];

  it('estimates everything when the model has not reported a size', () => {
    expect(promptTokens({ systemInstruction: SYSTEM, messages, toolsTokens: 300, known: null })).toBe(
      estimateTokens(SYSTEM) + 300 + estimateMessagesTokens(messages),
    );
  });

  it('uses the reported size and estimates only the messages that came after it', () => {
    const known = { tokens: 9_000, messageCount: 2 };
    expect(promptTokens({ systemInstruction: SYSTEM, messages, toolsTokens: 300, known })).toBe(
      9_000 + estimateMessagesTokens(messages.slice(2)),
    );
    expect(
      promptTokens({
        systemInstruction: SYSTEM,
        messages,
        toolsTokens: 300,
        known: { tokens: 9_000, messageCount: 3 },
      }),
    ).toBe(9_000);
  });

  it('falls back to the estimate when the report describes more messages than there are', () => {
    const known = { tokens: 50_000, messageCount: 10 };
    expect(promptTokens({ systemInstruction: SYSTEM, messages, toolsTokens: 300, known })).toBe(
      estimateTokens(SYSTEM) + 300 + estimateMessagesTokens(messages),
    );
  });
});

describe('needsCompression', () => {
  it('triggers strictly above the threshold share of the window', () => {
    const small: ContextConfig = { ...config, maxTokens: 1000 };
    expect(needsCompression(800, small)).toBe(false);
    expect(needsCompression(801, small)).toBe(true);
    expect(DEFAULT_CONTEXT).toEqual({ threshold: 0.8, preserveLastUserMessages: 3, summaryMaxChars: 6000 });
  });
});

describe('compressContext', () => {
  it('keeps the last user prompts and the current turn word for word, and summarises the rest', () => {
    const currentCalls = calls(['c9', 'gmail_search', { query: 'from:ana' }]);
    const currentResults = results(['c9', 'gmail_search', { messages: [{ id: 'm1' }] }]);
    const messages = [
      prompt('First question'),
      answer('First answer'),
      prompt('Second question'),
      calls(['c1', 'list_tasks', { done: false }]),
      results(['c1', 'list_tasks', { error: { code: 'not_connected', message: 'Connect Google first.' } }]),
      prompt('Third question'),
      answer('Third answer'),
      prompt('Fourth question'),
      currentCalls,
      currentResults,
    ];
    const compressed = compressContext(messages, null, config);

    expect(compressed).not.toBeNull();
    const [head, ...rest] = compressed?.messages ?? [];
    expect(head?.role).toBe('user');
    expect(textsOf(head).slice(1)).toEqual(['Second question', 'Third question', 'Fourth question']);
    expect(rest).toEqual([currentCalls, currentResults]);
    expect(compressed?.droppedMessages).toBe(5);
    expect(textsOf(head)[0]).toBe(`${SUMMARY_HEADER}\n${compressed?.summary}`);
    expect(compressed?.summary.split('\n')).toEqual([
      'user: First question',
      'model: First answer',
      'model: called list_tasks({"done":false})',
      'tool results: list_tasks → error: not_connected: Connect Google first.',
      'model: Third answer',
    ]);
  });

  it('continues the earlier summary', () => {
    const messages = [prompt('Old'), answer('Reply'), prompt('New'), calls(['c1', 'add_task'])];
    const compressed = compressContext(messages, 'user: much older question', {
      ...config,
      preserveLastUserMessages: 1,
    });
    expect(compressed?.summary).toBe('user: much older question\nuser: Old\nmodel: Reply');
    expect(compressed?.messages.at(-1)).toEqual(calls(['c1', 'add_task']));
  });

  it('has no current turn to keep when the conversation ends with a new prompt', () => {
    const messages = [
      prompt('Find Ana'),
      calls(['c1', 'contacts_search', { name: 'Ana' }]),
      results(['c1', 'contacts_search', { found: 1 }]),
      answer('Found her.'),
      prompt('Now email her'),
    ];
    const compressed = compressContext(messages, null, config);
    expect(compressed?.messages).toEqual([
      {
        role: 'user',
        parts: [
          { kind: 'text', text: `${SUMMARY_HEADER}\n${compressed?.summary}` },
          { kind: 'text', text: 'Find Ana' },
          { kind: 'text', text: 'Now email her' },
        ],
      },
    ]);
    expect(compressed?.summary).toContain('contacts_search → ok: {"found":1}');
  });

  it('returns null when there is nothing to drop', () => {
    expect(compressContext([], null, config)).toBeNull();
    expect(compressContext([prompt('Hi')], null, config)).toBeNull();
    const turn = [prompt('Plan'), calls(['c1', 'list_tasks']), results(['c1', 'list_tasks', { tasks: [] }])];
    expect(compressContext(turn, null, config)).toBeNull();
  });

  it('returns null for its own output, and treats its preserved prompts as prompts next time', () => {
    const messages = [
      prompt('P1'),
      answer('A1'),
      prompt('P2'),
      answer('A2'),
      prompt('P3'),
      calls(['c1', 'x']),
    ];
    const first = compressContext(messages, null, { ...config, preserveLastUserMessages: 2 });
    expect(first?.messages).toHaveLength(2);
    expect(compressContext(first?.messages ?? [], first?.summary ?? null, config)).toBeNull();

    const later = [...(first?.messages ?? []), results(['c1', 'x', {}]), answer('A3'), prompt('P4')];
    const second = compressContext(later, first?.summary ?? null, { ...config, preserveLastUserMessages: 2 });
    expect(textsOf(second?.messages[0]).slice(1)).toEqual(['P3', 'P4']);
    expect(second?.summary).toBe(
      'user: P1\nmodel: A1\nmodel: A2\nuser: P2\nmodel: called x({})\ntool results: x → ok: {}\nmodel: A3',
    );
    // The summary in the messages is used when the caller has none, with the same result.
    expect(compressContext(later, null, { ...config, preserveLastUserMessages: 2 })).toEqual(second);
  });

  it('clips the summary to its limit, keeping the newest lines and counting the ones left out', () => {
    const messages: ModelMessage[] = [];
    for (let i = 0; i < 50; i++) messages.push(prompt(`question number ${i}`), answer(`answer number ${i}`));
    messages.push(prompt('last'));
    const small: ContextConfig = { ...config, preserveLastUserMessages: 1, summaryMaxChars: 300 };

    const compressed = compressContext(messages, null, small);
    const summary = compressed?.summary ?? '';
    expect(summary.length).toBeLessThanOrEqual(300);
    const lines = summary.split('\n');
    const omitted = Number(/^\((\d+) older lines left out\)$/.exec(lines[0] ?? '')?.[1]);
    expect(omitted + lines.length - 1).toBe(100);
    expect(lines.at(-1)).toBe('model: answer number 49');

    // Clipping again adds to the count instead of losing it.
    const again = compressContext(
      [...(compressed?.messages ?? []), answer('one more'), prompt('and another')],
      summary,
      small,
    );
    const againLines = again?.summary.split('\n') ?? [];
    const omittedAgain = Number(/^\((\d+) older lines left out\)$/.exec(againLines[0] ?? '')?.[1]);
    expect(omittedAgain + againLines.length - 1).toBe(100 + 2);
    expect(again?.summary.length).toBeLessThanOrEqual(300);
  });

  it('keeps the start of the newest line when not even that fits', () => {
    const messages = [prompt('old'), answer('a'.repeat(300)), prompt('new')];
    const tiny: ContextConfig = { ...config, preserveLastUserMessages: 1, summaryMaxChars: 60 };
    const summary = compressContext(messages, null, tiny)?.summary ?? '';
    expect(summary.length).toBeLessThanOrEqual(60);
    expect(summary).toMatch(/^\(1 older line left out\)\nmodel: a+…$/);
  });

  it('clips long texts, arguments and results in summary lines', () => {
    const messages = [
      prompt('q'.repeat(1000)),
      calls(['c1', 'gmail_send', { body: 'b'.repeat(1000) }]),
      results(['c1', 'gmail_send', { sent: 's'.repeat(1000) }]),
      prompt('latest'),
    ];
    const compressed = compressContext(messages, null, { ...config, preserveLastUserMessages: 1 });
    const lines = compressed?.summary.split('\n') ?? [];
    expect(lines).toHaveLength(3);
    for (const line of lines) expect(line.length).toBeLessThan(260);
    expect(lines[1]).toMatch(/^model: called gmail_send\(\{"body":"b+…\)$/);
    expect(lines[2]).toMatch(/^tool results: gmail_send → ok: \{"sent":"s+…$/);
  });

  it('gives the same output for the same input', () => {
    const messages = [
      prompt('A'),
      answer('B'),
      prompt('C'),
      calls(['c1', 'x', { n: 1 }]),
      results(['c1', 'x', {}]),
    ];
    const once = compressContext(messages, 'older', config);
    const twice = compressContext(structuredClone(messages), 'older', config);
    expect(JSON.stringify(twice)).toBe(JSON.stringify(once));
  });

  it('keeps a long conversation under the threshold, compressing whenever needed', () => {
    const random = seeded(42);
    const threshold = config.threshold * config.maxTokens;
    const tools = ['gmail_search', 'calendar_search', 'slack_history', 'list_tasks'];
    const allPrompts: string[] = [];
    let messages: ModelMessage[] = [];
    let summary: string | null = null;
    let compressions = 0;
    let nextCall = 0;

    const say = (text: string): void => {
      allPrompts.push(text);
      messages.push(prompt(text));
    };
    /** Before each model call, as the engine will do it. */
    const beforeModelCall = (): void => {
      const size = sizeOf(messages);
      if (needsCompression(size, config)) {
        const tail = messages.slice(-2);
        const input = structuredClone(messages);
        const compressed = compressContext(messages, summary, config);
        expect(compressed).not.toBeNull();
        if (compressed === null) return;
        expect(compressContext(input, summary, config)).toEqual(compressed);
        expect(textsOf(compressed.messages[0]).slice(1)).toEqual(
          allPrompts.slice(-config.preserveLastUserMessages),
        );
        if (tail[0]?.parts.some((part) => part.kind === 'call'))
          expect(compressed.messages.slice(-2)).toEqual(tail);
        expect(compressed.summary.length).toBeLessThanOrEqual(config.summaryMaxChars);
        messages = compressed.messages;
        summary = compressed.summary;
        compressions++;
      }
      expect(sizeOf(messages)).toBeLessThanOrEqual(threshold);
      expectPaired(messages);
    };

    say('Sort out my week: mail, meetings and tasks.');
    for (let turn = 0; turn < 400; turn++) {
      beforeModelCall();
      const count = 1 + Math.floor(random() * 3);
      const made: Array<[string, string, Record<string, unknown>]> = [];
      for (let i = 0; i < count; i++) {
        const name = tools[Math.floor(random() * tools.length)] ?? 'list_tasks';
        made.push([`call-${nextCall++}`, name, { page: turn, filter: `f${i}` }]);
      }
      const modelTurn = calls(...made);
      if (random() < 0.3) modelTurn.parts.unshift({ kind: 'text', text: `Looking at part ${turn}.` });
      messages.push(modelTurn);
      const parts: ModelPart[] = made.map(([callId, name]) =>
        random() < 0.1
          ? { kind: 'result', callId, name, result: { error: { code: 'timeout', message: 'Timed out.' } } }
          : {
              kind: 'result',
              callId,
              name,
              result: { items: 'r'.repeat(2_000 + Math.floor(random() * 10_000)) },
            },
      );
      messages.push({ role: 'user', parts });
      if (turn % 20 === 19) {
        beforeModelCall();
        messages.push(answer(`Done with part ${turn}.`));
        say(`Next, part ${turn + 1}: ${'details '.repeat(Math.floor(random() * 200))}`);
      }
    }
    beforeModelCall();

    expect(compressions).toBeGreaterThan(20);
  });
});
