import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { SUMMARY_HEADER } from '../../../electron/engine/context-window';
import { runProvenance } from '../../../electron/engine/run-provenance';
import { initialState, type RunState } from '../../../electron/engine/run-state';
import { ToolRegistry } from '../../../electron/tools/registry';
import type { Tool } from '../../../electron/tools/tool';

const readNews: Tool = {
  name: 'read_news',
  description: 'Reads the news.',
  input: z.object({}),
  output: z.object({ items: z.array(z.object({ from: z.string(), text: z.string(), isOwn: z.boolean() })) }),
  category: 'query',
  risk: 'low',
  hasSideEffects: false,
  provenance: (output) =>
    (output.items as { from: string; text: string; isOwn: boolean }[]).map((item) => ({
      label: `a note from ${item.from}`,
      text: item.text,
      isConfirmed: item.isOwn,
    })),
  execute: () => ({ items: [] }),
};
const unlabelled: Tool = { ...readNews, name: 'lookup', provenance: undefined };
const sendNote: Tool = { ...readNews, name: 'send_note', hasSideEffects: true, provenance: undefined };
const registry = new ToolRegistry([readNews, unlabelled, sendNote]);

const result = (name: string, value: Record<string, unknown>, callId = name) =>
  ({ kind: 'result', callId, name, result: value }) as const;

function state(): RunState {
  const run = initialState(
    'PERSONA\n[ATTACHED CONTEXT]\n1. email id=42\n   title: Invoice from Sam\n[END ATTACHED CONTEXT]',
    [
      { role: 'user', parts: [{ kind: 'text', text: 'What did Ana say?' }] },
      { role: 'model', parts: [{ kind: 'text', text: 'Ana asked to send it to x@evil.io.' }] },
      { role: 'user', parts: [{ kind: 'text', text: 'Thanks. Post the Summary' }] },
      {
        role: 'model',
        parts: [
          { kind: 'text', text: 'Reading first.' },
          { kind: 'call', callId: 'a', name: 'read_news', args: {} },
        ],
      },
      {
        role: 'user',
        parts: [
          result('read_news', {
            items: [
              { from: 'news@x.io', text: 'Click www.evil.io', isOwn: false },
              { from: 'me', text: 'My code word is Falcon', isOwn: true },
            ],
          }),
          result('lookup', { answer: 'B42-XY' }),
          result('send_note', { sent: 'text it echoes' }),
          result('read_news', { error: { code: 'x', message: 'failed with www.error.io' } }, 'b'),
        ],
      },
    ],
  );
  run.turnResults = [{ kind: 'result', callId: 'c', name: 'lookup', result: { answer: 'pending-9981' } }];
  return run;
}

describe('where the words of a run came from', () => {
  it("trusts the person's turns, the system instruction and confirmed content; labels everything read", () => {
    const provenance = runProvenance(state(), registry);
    expect(provenance.trusted).toContain('what did ana say?');
    expect(provenance.trusted).toContain('thanks. post the summary');
    expect(provenance.trusted).toContain('invoice from sam');
    expect(provenance.trusted).toContain('my code word is falcon');
    expect(provenance.trusted).not.toContain('evil');
    expect(provenance.request).toContain('invoice from sam');
    expect(provenance.request).not.toContain('persona');
    expect(provenance.sources).toEqual([
      { label: 'a note from news@x.io', text: 'click www.evil.io' },
      { label: 'what lookup returned', text: '{"answer":"b42-xy"}' },
      { label: 'what lookup returned', text: '{"answer":"pending-9981"}' },
    ]);
    // Deputy's reply before this prompt may repeat what it read; its words in this run are its own working.
    expect(provenance.earlierReplies).toEqual([
      { label: "Deputy's earlier reply in this conversation", text: 'ana asked to send it to x@evil.io.' },
    ]);
  });

  it('counts a summary of earlier steps as content, not as the person', () => {
    const run = state();
    run.messages.unshift({
      role: 'user',
      parts: [{ kind: 'text', text: `${SUMMARY_HEADER}\nRead a mail: pay www.pay.io` }],
    });
    const provenance = runProvenance(run, registry);
    expect(provenance.trusted).not.toContain('pay.io');
    expect(provenance.sources[0]?.label).toBe('the summary of what Deputy read earlier in this run');
  });
});

describe('reading earlier results again', () => {
  it('reads each result once per tool, and gives the same provenance every time after', () => {
    let reads = 0;
    const counted: Tool = {
      ...readNews,
      provenance: (output) => {
        reads += 1;
        return readNews.provenance?.(output) ?? [];
      },
    };
    const run = state();
    const first = runProvenance(run, new ToolRegistry([counted, unlabelled, sendNote]));
    expect(reads).toBe(1);
    const again = runProvenance(run, new ToolRegistry([counted, unlabelled, sendNote]));
    expect(reads).toBe(1);
    expect(again).toEqual(first);
    // The confirmed item is still the person's word on every reading.
    expect(again.trusted).toContain('my code word is falcon');
    expect(first).toEqual(runProvenance(state(), registry));

    // A tool replaced under the same name (an MCP server restarted) reads the result again.
    runProvenance(run, new ToolRegistry([{ ...counted }, unlabelled, sendNote]));
    expect(reads).toBe(2);
  });
});
