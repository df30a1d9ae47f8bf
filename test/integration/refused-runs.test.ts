import { afterEach, describe, expect, it } from 'vitest';
import type { RunEvent } from '../../shared/contract';
import { benchRefusedRuns } from '../bench/refused-runs';
import { collect, openHost, type HostFixture } from '../support/host-fixture';
import { call, ScriptedModel } from '../support/scripted-model';
import type { ModelStreamEvent } from '../../electron/llm/model-client';

/** What 200 refused requests may leave on disk at most, per request (they wrote ~5.7 KB each before). */
const BYTES_PER_REFUSAL = 2_048;

const fixtures: HostFixture[] = [];
afterEach(async () => {
  for (const fixture of fixtures.splice(0)) await fixture.close();
});

const spendBudget: ModelStreamEvent[] = [
  { type: 'text', text: 'Done.' },
  {
    type: 'finish',
    finishReason: 'STOP',
    usage: { inputTokens: 5_000, outputTokens: 0, totalTokens: 5_000 },
  },
];

async function hostOverBudget(model = new ScriptedModel()) {
  const fixture = await openHost(model);
  fixtures.push(fixture);
  await fixture.host.invoke('settings.set', { rateLimits: { modelTokensPerHour: 1_000 } });
  model.script(spendBudget);
  const spent = await fixture.host.runToEnd({ prompt: 'Spend the budget' });
  return { ...fixture, model, spent };
}

describe('a refused request', () => {
  it('leaves a small record: 200 refusals stay under 2 KB each on disk', async () => {
    const footprint = await benchRefusedRuns(200);
    console.log(
      `200 refused requests: database grew ${footprint.bytes} bytes = ${Math.round(footprint.bytesPerRun)} bytes ` +
        `per refusal (WAL before folding in: ${footprint.walBytes} bytes), ${Math.round(footprint.elapsedMs)} ms`,
    );
    expect(footprint.refused).toBe(200);
    expect(footprint.bytesPerRun).toBeLessThan(BYTES_PER_REFUSAL);
  });

  it('still shows the prompt and the refusal in its thread, and streams like any failed run', async () => {
    const { host, model } = await hostOverBudget();
    const seen: RunEvent[] = [];
    const answer = await host.runToEnd({ prompt: 'What is on my list?' }, (event) => seen.push(event));

    expect(answer).toMatchObject({ ok: false, status: 'failed', mode: 'assistant_text' });
    expect(answer.summary).toMatch(/^Rate limit reached: the model-token budget/);
    expect(model.requests).toHaveLength(1);
    expect(seen.map((event) => (event.type === 'status' ? event.status : event.type))).toEqual([
      'queued',
      'error',
      'failed',
      'result',
    ]);
    expect(seen[1]).toMatchObject({ code: 'rate_limited' });

    const detail = await host.invoke('thread.get', { threadId: answer.threadId });
    expect(detail.messages.map((message) => [message.role, message.text])).toEqual([
      ['user', 'What is on my list?'],
    ]);
    expect(detail.runs).toMatchObject([{ id: answer.runId, status: 'failed', errorCode: 'rate_limited' }]);
  });

  it('replays its ending from the run row to a subscriber that comes long after', async () => {
    const { host } = await hostOverBudget();
    const first = await host.runToEnd({ prompt: 'First refused' });
    // More than the bus keeps in memory finish after it, so its events can only come from the store.
    for (let i = 0; i < 25; i += 1) await host.runToEnd({ prompt: `Refused ${i}` });
    const late = collect(host, first.runId);
    expect(late.map((event) => event.type)).toEqual(['error', 'status', 'result']);
    expect(late.at(-1)).toMatchObject({ type: 'result', result: { runId: first.runId, status: 'failed' } });
  });

  it('leaves an approval waiting in its thread untouched', async () => {
    const model = new ScriptedModel(
      call('add_task', { description: 'Renew passport', intent: 'add a task', confidence: 0.95 }),
    );
    const fixture = await openHost(model);
    fixtures.push(fixture);
    const { host } = fixture;
    const paused = await host.runToEnd({ prompt: 'Add a passport task' });
    expect(paused.status).toBe('awaiting_confirmation');
    await host.invoke('settings.set', { rateLimits: { modelTokensPerHour: 1_000 } });
    model.script(spendBudget);
    await host.runToEnd({ prompt: 'Spend the budget' });

    const refused = await host.runToEnd({ prompt: 'Anything new?', threadId: paused.threadId });
    expect(refused.status).toBe('failed');
    const pending = await host.invoke('approval.list', { status: 'pending' });
    expect(pending.approvals.map((approval) => approval.id)).toEqual([paused.approval?.id]);
  });
});
