import { describe, expect, it } from 'vitest';
import {
  commands,
  LIMITS,
  normalizeRunRequest,
  RunRequest,
  RunResponse,
  streams,
} from '../../../shared/contract';

describe('run request contract', () => {
  it('accepts the runtime spec request shape', () => {
    const parsed = RunRequest.parse({
      prompt: 'Reply to Sam',
      threadId: 't1',
      conversation: [
        { role: 'user', text: 'hi' },
        { role: 'assistant', text: 'hello' },
      ],
      attachedContext: [
        { type: 'email', id: 'm1', title: 'Lunch', snippet: 'Friday?', meta: { from: 'sam@x.io' } },
      ],
    });
    expect(parsed.attachedContext?.[0]?.meta).toEqual({ from: 'sam@x.io' });
  });

  it.each([
    [{}, 'prompt'],
    [{ prompt: '   ' }, 'prompt'],
    [{ prompt: 3 }, 'prompt'],
    [{ prompt: 'x', conversation: [{ role: 'system', text: 'x' }] }, 'role'],
    [{ prompt: 'x', attachedContext: [{ type: 'file', id: '1' }] }, 'type'],
    [{ prompt: 'x', attachedContext: [{ type: 'email' }] }, 'id'],
  ])('rejects %j', (input, field) => {
    const parsed = RunRequest.safeParse(input);
    expect(parsed.success).toBe(false);
    expect(JSON.stringify(parsed.error?.issues)).toContain(field);
  });

  it('keeps the last turns, clips long ones and strips control characters', () => {
    const conversation = Array.from({ length: 30 }, (_, index) => ({
      role: index % 2 === 0 ? ('user' as const) : ('assistant' as const),
      text: `turn ${index} ${'x'.repeat(index === 29 ? 10_000 : 3)}\u0007`,
    }));
    const normalized = normalizeRunRequest(RunRequest.parse({ prompt: 'go\u0000', conversation }));
    expect(normalized.prompt).toBe('go');
    expect(normalized.conversation).toHaveLength(LIMITS.conversationTurns);
    expect(normalized.conversation?.[0]?.text).toMatch(/^turn 10 /);
    expect(normalized.conversation?.at(-1)?.text.length).toBe(LIMITS.conversationTurnChars);
    expect(normalized.conversation?.some((turn) => turn.text.includes('\u0007'))).toBe(false);
  });

  it('caps attached context items, snippets and oversized meta', () => {
    const attachedContext = Array.from({ length: 15 }, (_, index) => ({
      type: 'calendar_event' as const,
      id: `e${index}`,
      snippet: 's'.repeat(5_000),
      meta: index === 0 ? { blob: 'm'.repeat(5_000) } : { ok: true },
    }));
    const normalized = normalizeRunRequest(RunRequest.parse({ prompt: 'x', attachedContext }));
    expect(normalized.attachedContext).toHaveLength(LIMITS.contextItems);
    expect(normalized.attachedContext?.[0]?.snippet?.length).toBe(LIMITS.contextSnippetChars);
    expect(normalized.attachedContext?.[0]?.meta).toBeUndefined();
    expect(normalized.attachedContext?.[1]?.meta).toEqual({ ok: true });
  });

  it('describes the response shape of the runtime spec', () => {
    const response = {
      ok: true,
      runId: 'r',
      actionId: 'a',
      threadId: 't',
      status: 'awaiting_confirmation',
      summary: 's',
      mode: 'approval_required',
      model: 'gemini',
      tool: 'gmail_send',
      toolArgs: { to: 'x' },
      approval: { id: 'p', tool: 'gmail_send', reason: 'r', preview: 'p' },
      output: {},
    };
    expect(RunResponse.parse(response)).toEqual(response);
    expect(RunResponse.safeParse({ ...response, status: 'executing' }).success).toBe(false);
  });

  it('maps every channel to input and output schemas', () => {
    expect(Object.keys(commands).sort()).toEqual(
      [
        'agents.get',
        'agents.import',
        'agents.list',
        'agents.run',
        'agents.setEnabled',
        'approval.decide',
        'approval.edit',
        'approval.list',
        'audit.assumptions',
        'audit.decisions',
        'audit.export',
        'audit.get',
        'audit.list',
        'audit.toolInvocations',
        'audit.undo',
        'audit.verifyAssumption',
        'audit.verifyChain',
        'connections.connect',
        'connections.disconnect',
        'connections.list',
        'context.clear',
        'context.stats',
        'data.compact',
        'data.stats',
        'mcp.delete',
        'mcp.import',
        'mcp.list',
        'mcp.log',
        'mcp.put',
        'mcp.restart',
        'memory.delete',
        'memory.list',
        'memory.update',
        'models.list',
        'artifacts.get',
        'artifacts.list',
        'plan.approve',
        'plan.cancel',
        'plan.continue',
        'plan.get',
        'run.cancel',
        'run.start',
        'runs.lineage',
        'settings.get',
        'settings.set',
        'sideEffects.get',
        'sideEffects.set',
        'thread.delete',
        'thread.get',
        'thread.rename',
        'threads.list',
        'threads.export',
        'threads.prune',
        'usage.daily',
        'tasks.list',
        'threads.search',
        'tasks.change',
        'tasksAndMemories.export',
      ].sort(),
    );
    expect(Object.keys(streams).sort()).toEqual([
      'agents.changed',
      'approvals.changed',
      'connections.changed',
      'run.events',
      'sideEffects.changed',
    ]);
  });
});
