import { afterEach, describe, expect, it } from 'vitest';
import type { Host } from '../../electron/host/create-host';
import {
  commands,
  type CommandName,
  type CommandOutput,
  type CommandParsedInput,
} from '../../shared/contract';
import type { Db } from '../../electron/store/database';
import { dataDirWithAgents } from '../support/agent-kit';
import { openHost, type HostFixture } from '../support/host-fixture';
import { MAIL_PLAN, planTools } from '../support/plan-kit';
import { call, say, ScriptedModel } from '../support/scripted-model';
import { COMPLETE_TASK } from '../../electron/engine/completion';
import {
  planOf,
  recordPreparing,
  viewsOf,
  WHOLE_TABLE_ON_PURPOSE,
  wholeTableReads,
} from '../support/statement-plans';

let fixture: HostFixture | undefined;

async function until(condition: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

/** As the IPC and HTTP doors call the host: the input parsed by the contract first (its defaults filled in). */
function asker(host: Host) {
  return <C extends CommandName>(channel: C, input: unknown): Promise<CommandOutput<C>> =>
    host.invoke(channel, commands[channel].input.parse(input) as CommandParsedInput<C>);
}

/** Each distinct statement prepared on deputy.db that reads a whole growing table (and is not allowed to). */
function wholeReadsOf(statements: readonly { db: Db; sql: string }[]): { distinct: number; reads: string[] } {
  const onStore = statements.filter(({ db }) => db.name.endsWith('deputy.db') && db.open);
  const distinct = new Map(onStore.map(({ db, sql }) => [sql.replace(/\s+/g, ' ').trim(), db]));
  const reads = [...distinct]
    .filter(([sql]) => /^(SELECT|INSERT|UPDATE|DELETE|WITH)\b/i.test(sql))
    .filter(([sql]) => !WHOLE_TABLE_ON_PURPOSE.some((allowed) => allowed.sql.test(sql)))
    .flatMap(([sql, db]) => wholeTableReads(sql, planOf(db, sql), viewsOf(db)));
  return { distinct: distinct.size, reads };
}

describe('the statements Deputy prepares as it is used (not only when the store opens)', () => {
  // test/unit/store/query-plans.test.ts checks what a store prepares when it opens; the rest is prepared on
  // first use: the audit viewer's filtered pages, the journal's batched inserts, the desks' reads.
  it('never read a whole growing table, except where that is the point', async () => {
    const recording = recordPreparing();
    try {
      const model = new ScriptedModel(
        call('list_tasks', {}, 'c-list'),
        call('add_task', { description: 'Send the quarterly figures' }, 'c-add'),
        say('Added.'),
        say('Nothing else.'),
      );
      fixture = await openHost(model);
      const { host } = fixture;
      const ask = asker(host);
      await ask('settings.set', { trustLevel: 'autonomous' });
      const first = await host.runToEnd({ prompt: 'Add a task for the quarterly figures' });
      const second = await host.runToEnd({ prompt: 'Anything else?', threadId: first.threadId });
      const { runId, threadId } = first;

      await ask('threads.list', {});
      await ask('thread.get', { threadId });
      await ask('threads.search', { query: 'quarterly' });
      const page = await ask('audit.list', {});
      const entryId = page.entries[0]?.id ?? '';
      for (const filter of [
        { threadId },
        { runId },
        { tool: 'add_task' },
        { status: 'failed' as const },
        { status: 'turned_down' as const },
        { status: 'turned_down' as const, q: 'quarterly' },
        { status: 'expired' as const },
        { status: 'expired' as const, q: 'quarterly' },
        { status: 'not_done' as const },
        { status: 'stopped' as const },
        { status: 'completed' as const, category: 'task' },
        { decision: 'allow' },
        { decision: 'deny', tool: 'add_task' },
        { risk: 'low' },
        { agentId: 'deputy' },
        { from: '2020-01-01T00:00:00.000Z', to: '2999-01-01T00:00:00.000Z' },
        { q: 'quarterly' },
        { q: 'quarterly', tool: 'add_task' },
      ])
        await ask('audit.list', { ...filter, limit: 1 });
      if (page.nextCursor) await ask('audit.list', { cursor: page.nextCursor });
      await ask('audit.get', { id: entryId });
      await ask('audit.assumptions', { id: entryId });
      await ask('audit.toolInvocations', { runId });
      await ask('audit.toolInvocations', { tool: 'add_task' });
      await ask('audit.toolInvocations', {});
      await ask('audit.decisions', { runId: second.runId });
      await ask('audit.decisions', {});
      await ask('usage.daily', {});
      await ask('memory.list', {});
      await ask('memory.list', { query: 'quarterly' });
      await ask('tasks.list', {});
      await ask('runs.lineage', { runId });
      await ask('artifacts.list', { runId });
      await ask('approval.list', { status: 'all' });
      await ask('data.stats', {});
      await ask('threads.prune', { olderThanDays: 30, dryRun: true });
      for (const format of ['jsonl', 'md'])
        for (let page = await ask('threads.export', { format }); page.nextCursor !== null;)
          page = await ask('threads.export', { format, cursor: page.nextCursor });
      for (let page = await ask('tasksAndMemories.export', {}); page.nextCursor !== null;)
        page = await ask('tasksAndMemories.export', { cursor: page.nextCursor });
      await ask('thread.delete', { threadId });
    } finally {
      recording.stop();
    }

    const { distinct, reads } = wholeReadsOf(recording.statements);
    expect(distinct).toBeGreaterThan(150);
    expect(reads).toEqual([]);
  });

  it('nor while a plan is approved and an agent runs', async () => {
    const recording = recordPreparing();
    try {
      const model = new ScriptedModel(
        call('propose_plan', MAIL_PLAN),
        call('lookup', { q: 'budget' }, 'c1'),
        call('send_message', { to: ['alice@example.com'], body: 'found budget' }, 'c2'),
        say('Sent.'),
        call('list_tasks', {}, 'c-list'),
        call(COMPLETE_TASK, { result: { note: 'No open tasks.' } }, 'c-done'),
      );
      fixture = await openHost(model, {
        tools: planTools([], { fetch: 0 }),
        dataDir: dataDirWithAgents({ name: 'task_scout', tools: ['list_tasks'] }),
      });
      const ask = asker(fixture.host);
      await ask('settings.set', { trustLevel: 'supervised', executionPolicy: 'batch' });
      const paused = await fixture.host.runToEnd({ prompt: 'Look up the budget and mail Alice' });
      expect(paused.status).toBe('awaiting_confirmation');
      const planId = paused.planId ?? '';
      await ask('approval.list', {});
      await ask('plan.get', { planId });
      await ask('plan.approve', { planId });
      await until(async () => (await ask('plan.get', { planId })).plan.status === 'completed');
      const agent = await fixture.host.runAgentToEnd({
        name: 'task_scout',
        inputs: { task: 'what is open?' },
      });
      expect(agent.status).toBe('completed');
      await ask('runs.lineage', { runId: agent.runId });
      await ask('agents.list', {});
      await ask('audit.decisions', { runId: agent.runId });
      await ask('audit.toolInvocations', { runId: paused.runId });
    } finally {
      recording.stop();
    }
    const { distinct, reads } = wholeReadsOf(recording.statements);
    expect(distinct).toBeGreaterThan(150);
    expect(reads).toEqual([]);
  });
});
