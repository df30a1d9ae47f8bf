import { afterEach, describe, expect, it } from 'vitest';
import type { RunEvent } from '../../shared/contract';
import { collect, openHost, type HostFixture } from '../support/host-fixture';
import { call, say, ScriptedModel } from '../support/scripted-model';

let fixture: HostFixture | null = null;
afterEach(async () => {
  await fixture?.close();
  fixture = null;
});

async function run(model: ScriptedModel, prompt: string) {
  fixture = await openHost(model);
  const events = collect(fixture.host);
  const answer = await fixture.host.runToEnd({ prompt });
  const detail = await fixture.host.invoke('thread.get', { threadId: answer.threadId });
  const decision = (await fixture.host.invoke('audit.list', { tool: 'agent_decision' })).entries;
  return { answer, detail, decision, events };
}

const resultOf = (events: RunEvent[]) => events.find((event) => event.type === 'result');

describe('spec 002 decisions the model takes itself', () => {
  it('offers the control tools to the model, and the constitution says when to use them', async () => {
    const model = new ScriptedModel(say('Hello.'));
    await run(model, 'Hi');
    const names = model.requests[0]?.tools.map((tool) => tool.name) ?? [];
    expect(names).toEqual(expect.arrayContaining(['request_clarification', 'refuse']));
    expect(model.requests[0]?.systemInstruction).toMatch(/call request_clarification/);
    expect(model.requests[0]?.systemInstruction).toMatch(/call refuse/);
  });

  it('REQUEST_CLARIFICATION: the question ends the run as AMBIGUITY:UNCLEAR_INTENT, nothing else runs', async () => {
    const model = new ScriptedModel([
      {
        type: 'function_call',
        callId: 'c-ask',
        name: 'request_clarification',
        args: { question: 'Which Alex?' },
      },
      {
        type: 'function_call',
        callId: 'c-add',
        name: 'add_task',
        args: { description: 'x', confidence: 0.9 },
      },
      { type: 'finish', finishReason: 'STOP', usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 } },
    ]);
    const { answer, detail, decision, events } = await run(model, 'Set up a meeting with Alex');
    expect(answer).toMatchObject({
      status: 'completed',
      summary: 'Which Alex?',
      decision: 'REQUEST_CLARIFICATION',
      outcome: 'AMBIGUITY:UNCLEAR_INTENT',
    });
    expect(detail.runs[0]).toMatchObject({
      decision: 'REQUEST_CLARIFICATION',
      outcome: 'AMBIGUITY:UNCLEAR_INTENT',
    });
    expect(detail.messages.at(-1)).toMatchObject({ role: 'assistant', text: 'Which Alex?' });
    expect(detail.actions).toEqual([]);
    expect(decision[0]).toMatchObject({
      authority: { decision: 'REQUEST_CLARIFICATION', rule: 'AMBIGUITY:UNCLEAR_INTENT' },
    });
    expect(resultOf(events)).toMatchObject({ result: { decision: 'REQUEST_CLARIFICATION' } });
  });

  it('REFUSE: an out-of-scope request is refused politely as REFUSAL:OUT_OF_SCOPE', async () => {
    const model = new ScriptedModel(
      call('refuse', {
        reason: 'I can’t check the weather; I can help with mail, calendar, Slack and tasks.',
      }),
    );
    const { answer, detail, decision, events } = await run(model, "What's the weather?");
    expect(answer).toMatchObject({
      status: 'completed',
      decision: 'REFUSE',
      outcome: 'REFUSAL:OUT_OF_SCOPE',
    });
    expect(answer.summary).toMatch(/weather/);
    expect(detail.runs[0]).toMatchObject({ decision: 'REFUSE', outcome: 'REFUSAL:OUT_OF_SCOPE' });
    expect(decision[0]).toMatchObject({ kind: 'decision', authority: { decision: 'REFUSE' } });
    expect(resultOf(events)).toMatchObject({ result: { outcome: 'REFUSAL:OUT_OF_SCOPE' } });
  });

  it('a control call with bad arguments is answered to the model, which tries again', async () => {
    const model = new ScriptedModel(call('refuse', { because: 'no' }), say('Sorry, I cannot do that.'));
    const { answer, decision } = await run(model, 'Do the impossible');
    expect(answer).toMatchObject({
      status: 'completed',
      decision: 'RESPOND_ONLY',
      outcome: 'SUCCESS:RESPONSE_GIVEN',
    });
    expect(JSON.stringify(model.requests[1]?.messages)).toContain('refuse needs');
    expect(decision).toHaveLength(1);
  });
});
