import { describe, expect, it } from 'vitest';
import type { DecisionRecord, ToolInvocation } from '../../shared/contract';
import { dispatchCommand } from '../../electron/host/dispatch';
import type { ModelStreamEvent } from '../../electron/llm/model-client';
import { closedAfterEach, jsonOf, serveApi } from '../support/api-server';
import { GatedModel, until } from '../support/gated-model';
import { collect, openHost } from '../support/host-fixture';
import { say, ScriptedModel } from '../support/scripted-model';

const TOKEN = 'decision-logs-token';
const { fixtures, servers } = closedAfterEach();

/** A model turn asking for one call, reporting its own token count. */
function callWith(name: string, args: Record<string, unknown>, inputTokens: number): ModelStreamEvent[] {
  return [
    { type: 'function_call', callId: `call-${name}-${inputTokens}`, name, args },
    {
      type: 'finish',
      finishReason: 'STOP',
      usage: { inputTokens, outputTokens: 7, totalTokens: inputTokens + 7 },
    },
  ];
}

const meta = { intent: 'do what was asked', confidence: 0.95 };

async function open(model: ScriptedModel) {
  const fixture = await openHost(model);
  fixtures.push(fixture);
  await fixture.host.invoke('settings.set', { trustLevel: 'autonomous' });
  const { server, api } = await serveApi(fixture, TOKEN);
  servers.push(server);
  const json = jsonOf(api);
  return { host: fixture.host, json };
}

describe("spec 002's DecisionLog and ToolInvocationLog", () => {
  it('records one decision per run and one invocation per call, each call charged its own turn’s tokens', async () => {
    const model = new ScriptedModel(
      callWith('list_tasks', {}, 100),
      callWith('add_task', { description: 'Renew passport', ...meta }, 2_000),
      say('Added it.'),
    );
    const { host, json } = await open(model);
    const done = await host.runToEnd({ prompt: 'Add a passport task' });

    const decisions = await json<{ decisions: DecisionRecord[] }>(`/api/audit/decisions?run=${done.runId}`);
    expect(decisions.status).toBe(200);
    expect(decisions.body.decisions).toEqual([
      expect.objectContaining({
        runId: done.runId,
        threadId: done.threadId,
        decision: 'INVOKE_TOOL',
        outcome: 'SUCCESS:TASK_COMPLETED',
        intent: 'Add a passport task',
        summary: 'Added it.',
        auditEntryId: expect.any(String),
        tokensUsed: 107 + 2_007 + 15,
      }),
    ]);
    const entry = await host.invoke('audit.get', { id: decisions.body.decisions[0]?.auditEntryId ?? '' });
    expect(entry.entry).toMatchObject({ kind: 'decision', runId: done.runId });

    const invocations = await json<{ invocations: ToolInvocation[] }>(
      `/api/audit/tool-invocations?run=${done.runId}`,
    );
    expect(invocations.status).toBe(200);
    expect(invocations.body.invocations.map((i) => [i.tool, i.success, i.outcome, i.tokensUsed])).toEqual([
      ['add_task', true, 'SUCCESS:TASK_COMPLETED', 2_007],
      ['list_tasks', true, 'SUCCESS:TASK_COMPLETED', 107],
    ]);
    const [added, listed] = invocations.body.invocations;
    expect(added?.sequence).toBeGreaterThan(listed?.sequence ?? Infinity);
    expect(added?.parameters).toMatchObject({ description: 'Renew passport' });
    expect(added?.result).toMatchObject({ task: { description: 'Renew passport' } });
    // The audit entry says the same.
    const [addEntry] = (await host.invoke('audit.list', { tool: 'add_task' })).entries;
    expect(addEntry?.tokensUsed).toBe(2_007);
  });

  it('categorises a call the policy refused, and the run that ended on it', async () => {
    const model = new ScriptedModel(
      callWith('add_task', { description: 'First', ...meta }, 50),
      callWith('add_task', { description: 'Second', ...meta }, 60),
      say('Done.'),
    );
    const { host } = await open(model);
    await host.invoke('settings.set', { rateLimits: { actionsPerMinute: 1 } });
    const done = await host.runToEnd({ prompt: 'Add two tasks' });
    const { invocations } = await host.invoke('audit.toolInvocations', { runId: done.runId });
    expect(invocations.map((i) => [i.success, i.outcome])).toEqual([
      [false, 'REFUSAL:RATE_LIMITED'],
      [true, 'SUCCESS:TASK_COMPLETED'],
    ]);
    const { decisions } = await host.invoke('audit.decisions', { threadId: done.threadId });
    expect(decisions).toEqual([
      expect.objectContaining({
        decision: 'REFUSE',
        outcome: 'REFUSAL:RATE_LIMITED',
        errorCode: 'rate_limited',
      }),
    ]);
  });

  it('records a decision for requests refused before any run: rate limited, unknown conversation, bad input', async () => {
    const model = new ScriptedModel([
      { type: 'text', text: 'Done.' },
      {
        type: 'finish',
        finishReason: 'STOP',
        usage: { inputTokens: 5_000, outputTokens: 0, totalTokens: 5_000 },
      },
    ]);
    const { host, json } = await open(model);
    await host.invoke('settings.set', { rateLimits: { modelTokensPerHour: 1_000 } });
    await host.runToEnd({ prompt: 'Spend the budget' });
    const limited = await host.runToEnd({ prompt: 'One more thing' });
    expect(limited.status).toBe('failed');

    await expect(host.runToEnd({ prompt: 'Hello', threadId: 'no-such-thread' })).rejects.toMatchObject({
      code: 'not_found',
    });
    const badHttp = await json<{ error: { code: string } }>('/api/agent/run', {
      method: 'POST',
      body: JSON.stringify({ prompt: 42 }),
    });
    expect(badHttp.status).toBe(400);
    const badIpc = await dispatchCommand(host, 'run.start', { prompt: '' });
    expect(badIpc.ok).toBe(false);

    const { decisions } = await host.invoke('audit.decisions', { limit: 10 });
    expect(decisions.map((d) => [d.decision, d.outcome, d.runId === null])).toEqual([
      ['REFUSE', 'REFUSAL:INVALID_INPUT', true],
      ['REFUSE', 'REFUSAL:INVALID_INPUT', true],
      ['REFUSE', 'REFUSAL:NOT_FOUND', true],
      ['REFUSE', 'REFUSAL:RATE_LIMITED', false],
      ['RESPOND_ONLY', 'SUCCESS:RESPONSE_GIVEN', false],
    ]);
    expect(decisions[3]).toMatchObject({ runId: limited.runId, intent: 'One more thing' });
    // Nothing of a refused request without a conversation is kept but why it was refused.
    expect(decisions[2]?.intent).toBeNull();
    expect(decisions[2]?.summary).toMatch(/no conversation/);
    // Paged, newest first.
    const first = await host.invoke('audit.decisions', { limit: 2 });
    const next = await host.invoke('audit.decisions', { limit: 2, cursor: first.nextCursor ?? '' });
    expect([...first.decisions, ...next.decisions].map((d) => d.seq)).toEqual(
      decisions.slice(0, 4).map((d) => d.seq),
    );
  });

  it('records a decision for a run that waited at the cap on runs and was cancelled before it started', async () => {
    const model = new GatedModel();
    const fixture = await openHost(model);
    fixtures.push(fixture);
    const { host } = fixture;
    await host.invoke('settings.set', { maxConcurrentRuns: 1 });
    const events = collect(host);
    const busy = await host.invoke('run.start', { prompt: 'busy' });
    const waiting = await host.invoke('run.start', { prompt: 'waits its turn' });
    await until(() => model.held.length === 1);
    await host.invoke('run.cancel', { runId: waiting.runId });
    await until(() => events.some((event) => event.type === 'result' && event.runId === waiting.runId));
    const { decisions } = await host.invoke('audit.decisions', { runId: waiting.runId });
    expect(decisions).toEqual([
      expect.objectContaining({
        decision: 'RESPOND_ONLY',
        outcome: 'ERROR:CANCELLED',
        errorCode: 'cancelled',
        intent: 'waits its turn',
        summary: 'Stopped before it started.',
      }),
    ]);
    model.answer('busy');
    await until(() => events.some((event) => event.type === 'result' && event.runId === busy.runId));
  });
});
