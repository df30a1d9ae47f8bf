import { describe, expect, it } from 'vitest';
import type { FakeStep, GeminiContent, RecordedRequest } from '../../fakes/gemini/types';
import { CHAOS_AGENT } from '../../chaos/chaos-agent';
import { chaosPlan, chaosPrompt, chaosReply, finalText, runNumberOf } from '../../chaos/chaos-model';

function request(contents: GeminiContent[]): RecordedRequest {
  return {
    path: '/v1beta/models/m:streamGenerateContent',
    apiVersion: 'v1beta',
    model: 'm',
    method: 'streamGenerateContent',
    apiKey: 'k',
    body: { contents },
  };
}

/** The conversation of run K after `results` tool results, as the host would send it. */
function conversation(k: number, results: number): GeminiContent[] {
  const contents: GeminiContent[] = [{ role: 'user', parts: [{ text: chaosPrompt(k) }] }];
  let given = 0;
  for (const turn of chaosPlan(k)) {
    if (given >= results) break;
    contents.push({
      role: 'model',
      parts: turn.map((call) => ({ functionCall: { name: call.name, args: call.args } })),
    });
    contents.push({
      role: 'user',
      parts: turn.map((call) => ({ functionResponse: { name: call.name, response: { ok: true } } })),
    });
    given += turn.length;
  }
  return contents;
}

function callsOf(step: FakeStep): string[] {
  const inner = step.kind === 'delay' ? step.step : step;
  if (inner.kind !== 'reply') throw new Error(`expected a reply, got ${inner.kind}`);
  return inner.chunks.flatMap((chunk) => chunk.calls ?? []).map((call) => call.name);
}

function textOf(step: FakeStep): string {
  const inner = step.kind === 'delay' ? step.step : step;
  if (inner.kind !== 'reply') throw new Error(`expected a reply, got ${inner.kind}`);
  return inner.chunks.map((chunk) => chunk.text ?? '').join('');
}

describe('the chaos model', () => {
  it('plays run K one side effect per turn, then says it is done', () => {
    expect(callsOf(chaosReply(request(conversation(6, 0))).step)).toEqual(['gmail_send']);
    expect(callsOf(chaosReply(request(conversation(6, 1))).step)).toEqual(['calendar_event_create']);
    expect(callsOf(chaosReply(request(conversation(6, 2))).step)).toEqual(['slack_send']);
    expect(textOf(chaosReply(request(conversation(6, 3))).step)).toBe(finalText(6));
  });

  it('delegates every fifth run to the courier agent, whose child does the work and completes', () => {
    const parent = (results: number) => request(conversation(4, results));
    expect(callsOf(chaosReply(parent(0)).step)).toEqual([CHAOS_AGENT]);
    expect(textOf(chaosReply(parent(1)).step)).toBe(finalText(4));
    // The child is told apart by the complete_task it is offered; its query names the same run.
    const child = (results: number): RecordedRequest => ({
      ...request(conversation(4, results)),
      body: {
        contents: conversation(4, results).map((content, index) =>
          index === 0 ? { role: 'user', parts: [{ text: 'Deliver this: chaos run 4' }] } : content,
        ),
        tools: [{ functionDeclarations: [{ name: 'gmail_send' }, { name: 'complete_task' }] }],
      },
    });
    expect(callsOf(chaosReply(child(0)).step)).toEqual(['gmail_send']);
    expect(callsOf(chaosReply(child(3)).step)).toEqual(['complete_task']);
    expect(chaosPlan(4)[0]?.[0]?.args).toMatchObject({ confidence: 0.8 });
  });

  it('proposes a plan first in the sixth shape, then mail and event together, then the post', () => {
    expect(callsOf(chaosReply(request(conversation(5, 0))).step)).toEqual(['propose_plan']);
    expect(callsOf(chaosReply(request(conversation(5, 1))).step)).toEqual([
      'gmail_send',
      'calendar_event_create',
    ]);
    expect(callsOf(chaosReply(request(conversation(5, 3))).step)).toEqual(['slack_send']);
    expect(textOf(chaosReply(request(conversation(5, 4))).step)).toBe(finalText(5));
    const [proposal] = chaosPlan(5)[0] ?? [];
    expect(proposal?.args.steps).toEqual([
      expect.objectContaining({ id: 'mail', tool: 'gmail_send', dependsOn: [] }),
      expect.objectContaining({ id: 'event', tool: 'calendar_event_create', dependsOn: [] }),
      expect.objectContaining({ id: 'post', tool: 'slack_send', dependsOn: ['mail', 'event'] }),
    ]);
  });

  it('batches mail and event in one turn in the batched shape', () => {
    expect(callsOf(chaosReply(request(conversation(2, 0))).step)).toEqual([
      'gmail_send',
      'calendar_event_create',
    ]);
    expect(callsOf(chaosReply(request(conversation(2, 2))).step)).toEqual(['slack_send']);
    expect(textOf(chaosReply(request(conversation(2, 3))).step)).toBe(finalText(2));
  });

  it('answers a turn asked again exactly as before', () => {
    const first = chaosReply(request(conversation(9, 1)));
    const again = chaosReply(request(conversation(9, 1)));
    expect(again).toEqual(first);
    expect(first).toMatchObject({ k: 9, answered: 1 });
  });

  it('marks each effect with its run and asks for approval in three shapes of five', () => {
    const [mail] = chaosPlan(1)[0] ?? [];
    expect(mail?.args).toMatchObject({ subject: 'chaos-1', confidence: 0.8 });
    const post = chaosPlan(3).at(-1)?.[0];
    expect(post?.args).toMatchObject({ text: 'chaos-3', confidence: 0.8 });
    const sure = chaosPlan(0).flat();
    expect(sure.map((call) => call.args.confidence)).toEqual([0.95, 0.95, 0.95]);
    expect(chaosPlan(5)[1]?.[0]?.args.start).not.toBe(chaosPlan(6)[1]?.[0]?.args.start);
  });

  it('reads the run number back from a prompt and ignores other prompts', () => {
    expect(runNumberOf(chaosPrompt(123))).toBe(123);
    expect(runNumberOf('hello')).toBeNull();
    expect(chaosReply(request([{ role: 'user', parts: [{ text: 'hello' }] }]))).toMatchObject({ k: null });
  });
});
