import { afterEach, describe, expect, it } from 'vitest';
import { ModelError, type ModelStreamEvent } from '../../electron/llm/model-client';
import { COMPLETE_TASK } from '../../electron/engine/completion';
import { dataDirWithAgents } from '../support/agent-kit';
import { storeOf, until } from '../support/durable-kit';
import { openHost, type HostFixture } from '../support/host-fixture';
import { call, say, ScriptedModel } from '../support/scripted-model';
import { syntheticMailTools } from '../support/synthetic-tools';

let fixture: HostFixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

const done = (note: string, callId = `done-${note}`): ModelStreamEvent[] =>
  call(COMPLETE_TASK, { result: { note } }, callId);
const resultsOf = (model: ScriptedModel, request: number) =>
  (model.requests[request]?.messages.at(-1)?.parts ?? []).flatMap((part) =>
    part.kind === 'result' ? [part.result] : [],
  );

describe('running an agent', () => {
  it('ends through complete_task under outputName; a bad output is refused and the model told why', async () => {
    const model = new ScriptedModel(
      call('list_tasks', {}, 'c-list'),
      call(COMPLETE_TASK, { result: { note: '' } }, 'c-bad'),
      done('No open tasks.'),
    );
    fixture = await openHost(model, {
      dataDir: dataDirWithAgents({
        name: 'task_scout',
        tools: ['list_tasks'],
        modelConfig: { model: 'gemini-2.5-pro', temp: 0.2, top_p: 0.8, thinkingBudget: 512 },
        runConfig: { max_turns: 6 },
      }),
    });
    const response = await fixture.host.runAgentToEnd({
      name: 'task_scout',
      inputs: { task: 'what is open?' },
    });

    expect(response).toMatchObject({
      status: 'completed',
      summary: 'Note: No open tasks.',
      output: { result: { note: 'No open tasks.' } },
      decision: 'COMPLETE_TASK',
      model: 'gemini-2.5-pro',
    });
    const refusal = resultsOf(model, 2)[0] as { error: { message: string } };
    expect(refusal.error.message).toMatch(/does not fit the required schema \(result\.note: /);
    // The agent sees its own tools, the control tools and complete_task — not the rest of the registry.
    const names = model.requests[0]?.tools.map((tool) => tool.name);
    expect(names).toEqual(['list_tasks', 'request_clarification', 'refuse', 'state_intent', COMPLETE_TASK]);
    expect(model.requests[0]?.generation).toEqual({ temperature: 0.2, topP: 0.8, thinkingBudget: 512 });
    expect(model.requests[0]?.systemInstruction).toContain('You are task_scout.');
    expect(model.requests[0]?.messages[0]?.parts[0]).toEqual({
      kind: 'text',
      text: 'Do this: what is open?',
    });
    const store = storeOf(fixture.host);
    expect(store.events.runtimeByRun(response.runId).every((event) => event.agentId === 'task_scout')).toBe(
      true,
    );
    const artifacts = await fixture.host.invoke('artifacts.list', { runId: response.runId });
    expect(artifacts.artifacts).toHaveLength(1);
    expect(artifacts.artifacts[0]).toMatchObject({
      type: 'report',
      agentId: 'task_scout',
      content: 'Note: No open tasks.',
    });
    expect(artifacts.artifacts[0]?.metadata).toMatchObject({ size: 20, mimeType: 'text/markdown' });
    expect(artifacts.artifacts[0]?.metadata.hash).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it('refuses inputs that do not fit inputConfig, and an agent that does not exist', async () => {
    fixture = await openHost(new ScriptedModel(), {
      dataDir: dataDirWithAgents({ name: 'task_scout', tools: [] }),
    });
    await expect(fixture.host.runAgentToEnd({ name: 'task_scout', inputs: {} })).rejects.toMatchObject({
      code: 'invalid_input',
    });
    await expect(fixture.host.runAgentToEnd({ name: 'nobody', inputs: {} })).rejects.toMatchObject({
      code: 'not_found',
    });
  });

  it('enforces max_turns with the final-warning turn', async () => {
    const model = new ScriptedModel(
      call('list_tasks', {}, 'a'),
      call('list_tasks', {}, 'b'),
      done('Stopped early.'),
    );
    fixture = await openHost(model, {
      dataDir: dataDirWithAgents({ name: 'busy', tools: ['list_tasks'], runConfig: { max_turns: 4 } }),
    });
    const response = await fixture.host.runAgentToEnd({ name: 'busy', inputs: { task: 'loop' } });
    expect(response).toMatchObject({ status: 'completed', recovered: true });
    expect(model.requests[2]?.tools.map((tool) => tool.name)).toEqual([COMPLETE_TASK]);
    expect(model.requests[2]?.systemInstruction).toContain('[FINAL WARNING]');
  });
});

describe('max_time_minutes', () => {
  it('gives the agent its final-warning turn once its active time passes the limit', async () => {
    // The first turn takes two minutes of the agent's clock; the limit is one.
    let elapsed = 0;
    const now = () => new Date(Date.UTC(2026, 10, 23, 12) + elapsed);
    const model = new ScriptedModel(() => {
      elapsed += 120_000;
      return call('list_tasks', {}, 'slow');
    }, done('Out of time.'));
    fixture = await openHost(model, {
      now,
      dataDir: dataDirWithAgents({
        name: 'slowpoke',
        tools: ['list_tasks'],
        runConfig: { max_time_minutes: 1 },
      }),
    });
    const response = await fixture.host.runAgentToEnd({
      name: 'slowpoke',
      inputs: { task: 'take your time' },
    });
    expect(response).toMatchObject({ status: 'completed', recovered: true, summary: 'Note: Out of time.' });
    expect(model.requests[1]?.tools.map((tool) => tool.name)).toEqual([COMPLETE_TASK]);
  });
});

describe('SOP phase gates', () => {
  const sop = {
    phases: [
      { name: 'explore', allowedTools: ['list_tasks'] },
      { name: 'act', allowedTools: ['add_task'] },
      { name: 'report', allowedTools: [] },
    ],
    qualityGates: [{ after: 'explore', check: 'has_results', min: 1 }],
  };

  it('refuses a later phase tool until the gate is met, tells the model why, and keeps the phase in the checkpoint', async () => {
    const phases: unknown[] = [];
    let runId = '';
    const phaseNow = (): unknown =>
      fixture ? (storeOf(fixture.host).checkpoints.load(runId)?.state.sopPhase ?? null) : 'no host';
    const model = new ScriptedModel(
      call('add_task', { description: 'Too early', intent: 'add', confidence: 0.9 }, 'early'),
      call('list_tasks', {}, 'look'),
      () => {
        phases.push(phaseNow());
        return call('add_task', { description: 'Follow up', intent: 'add', confidence: 0.9 }, 'add');
      },
      () => {
        phases.push(phaseNow());
        return call('list_tasks', {}, 'back');
      },
      done('Added one task.'),
    );
    fixture = await openHost(model, {
      dataDir: dataDirWithAgents({ name: 'gated', tools: ['list_tasks', 'add_task'], sop }),
    });
    const { started, done: ended } = fixture.host.agents.start({
      name: 'gated',
      inputs: { task: 'tidy up' },
    });
    runId = started.runId;
    // Adding a task asks the person first: the agent pauses like any run, and goes on once approved.
    expect((await ended).status).toBe('awaiting_confirmation');
    const [approval] = fixture.host.approvals.pending();
    const response = await fixture.host.approvals.decide({
      approvalId: approval?.id ?? '',
      decision: 'approve',
    });

    expect(response.status).toBe('completed');
    const early = resultsOf(model, 1)[0] as { error: { code: string; message: string } };
    expect(early.error.code).toBe('not_allowed');
    expect(early.error.message).toContain('"explore" phase needs at least 1 successful tool result');
    expect(phases).toEqual([null, 'act']);
    const back = resultsOf(model, 4)[0] as { error: { message: string } };
    expect(back.error.message).toContain(
      'list_tasks is not allowed in the "act" phase or any phase after it',
    );
    expect(
      storeOf(fixture.host)
        .tasks.list({ status: 'all', limit: 50 })
        .map((task) => task.description),
    ).toEqual(['Follow up']);
    expect(model.requests[0]?.systemInstruction).toContain('[SOP] Work in these phases');
  });
});

describe('a phase that asks first', () => {
  it('holds a side effect the autonomy settings would allow, and only in that phase', async () => {
    const model = new ScriptedModel(
      call('list_tasks', {}, 'look'),
      call('add_task', { description: 'Book the room', intent: 'add', confidence: 0.95 }, 'add'),
    );
    fixture = await openHost(model, {
      dataDir: dataDirWithAgents({
        name: 'booker',
        displayName: 'Room booker',
        tools: ['list_tasks', 'add_task'],
        sop: {
          phases: [
            { name: 'look', allowedTools: ['list_tasks'] },
            { name: 'awaiting_user', allowedTools: ['add_task'], requiresApproval: true },
          ],
        },
      }),
    });
    await fixture.host.invoke('settings.set', {
      trustLevel: 'autonomous',
      autonomy: { 'task.create': 'auto' },
    });
    const response = await fixture.host.runAgentToEnd({ name: 'booker', inputs: { task: 'book it' } });
    expect(response.status).toBe('awaiting_confirmation');
    const [approval] = fixture.host.approvals.pending();
    expect(approval).toMatchObject({ tool: 'add_task', rule: 'sop.phase_requires_approval' });
    // Named as the person knows the agent, once, and its step in words, not as code.
    expect(approval?.reason).toBe(
      'Room booker wants to add a task: Book the room. Its step “Wait for your approval” asks you before it acts.',
    );
    // The audit trail's entry has no line saying who asks: its reason names the agent.
    const [entry] = (await fixture.host.invoke('audit.list', { tool: 'add_task' })).entries;
    expect(entry?.authority.reason).toBe(
      'Room booker’s step “Wait for your approval” asks you before it acts.',
    );
    expect(storeOf(fixture.host).actions.byCall(response.runId, 'look')?.ledgerState).toBe('committed');
  });
});

/** The parent delegates to `child`; the child asks for gmail_send, then finishes; then the parent finishes. */
const childTriesToSend = (child: string, childNote: string, parentNote: string): ScriptedModel =>
  new ScriptedModel(
    call(child, { task: 'send it' }, 'p-call'),
    call(
      'gmail_send',
      { to: ['sam@x.io'], subject: 's', body: 'b', intent: 'send', confidence: 0.9 },
      'c-send',
    ),
    done(childNote, 'c-done'),
    done(parentNote, 'p-done'),
  );

describe('delegation', () => {
  it('gives the child the intersection of its tools and its parent’s, and rolls usage and artifacts up', async () => {
    const model = childTriesToSend('helper', 'Could not send; listed instead.', 'Helper answered.');
    fixture = await openHost(model, {
      dataDir: dataDirWithAgents(
        { name: 'lead', tools: ['list_tasks', 'helper'] },
        { name: 'helper', tools: ['list_tasks', 'gmail_send'] },
      ),
    });
    const response = await fixture.host.runAgentToEnd({ name: 'lead', inputs: { task: 'delegate' } });
    expect(response).toMatchObject({ status: 'completed', summary: 'Note: Helper answered.' });

    // The child never sees gmail_send, and asking for it is refused with the reason.
    expect(model.requests[1]?.tools.map((tool) => tool.name)).not.toContain('gmail_send');
    const refused = resultsOf(model, 2)[0] as { error: { code: string; message: string } };
    expect(refused.error).toMatchObject({ code: 'not_allowed' });
    expect(refused.error.message).toContain('gmail_send is not one of the tools granted to helper');
    // The parent reads the child's processed output.
    const toParent = resultsOf(model, 3)[0] as { summary: string; output: unknown };
    expect(toParent).toMatchObject({ summary: 'Note: Could not send; listed instead.' });
    // The child's context is its own: its first message is its query, not the parent's conversation.
    expect(model.requests[1]?.messages).toHaveLength(1);

    const lineage = await fixture.host.invoke('runs.lineage', { runId: response.runId });
    expect(lineage.nodes.map((node) => [node.role, node.depth, node.status, node.grantedTools])).toEqual([
      ['lead', 1, 'completed', ['list_tasks', 'helper']],
      ['helper', 2, 'completed', ['list_tasks']],
    ]);
    const [lead, helper] = lineage.nodes;
    expect(helper?.parentRunId).toBe(response.runId);
    expect(helper?.parentAgentId).toBe(lead?.id);
    // The child's status events name its parent: a window following the parent is not taken over by it.
    const statuses = storeOf(fixture.host)
      .events.byRun(helper?.runId ?? '')
      .filter((event) => (event as { type?: string }).type === 'status');
    expect(statuses.length).toBeGreaterThan(0);
    expect(
      statuses.every((event) => (event as { parentRunId?: string }).parentRunId === response.runId),
    ).toBe(true);
    // Each turn of the scripted model uses 10 input and 5 output tokens: two turns each.
    expect(helper?.usage).toMatchObject({ inputTokens: 20, outputTokens: 10 });
    expect(lead?.usage).toMatchObject({ inputTokens: 20, outputTokens: 10 });
    expect(lead?.rolledUp).toMatchObject({ inputTokens: 40, outputTokens: 20 });
    expect(lead?.rolledUp.cost).toBeCloseTo((lead?.usage.cost ?? 0) + (helper?.usage.cost ?? 0), 6);
    expect(lineage.total).toEqual(lead?.rolledUp);

    const artifacts = await fixture.host.invoke('artifacts.list', { runId: response.runId });
    expect(artifacts.artifacts.map((artifact) => [artifact.agentId, artifact.content])).toEqual([
      ['helper', 'Note: Could not send; listed instead.'],
      ['lead', 'Note: Helper answered.'],
    ]);
    const child = artifacts.artifacts[0];
    expect(child?.sourceRunId).toBe(helper?.runId);
    expect((await fixture.host.invoke('artifacts.get', { id: child?.id ?? '' })).artifact).toEqual(child);
  });

  it('a child of a read-only parent cannot send, even when the child itself may', async () => {
    const model = childTriesToSend('sender', 'Not allowed to send.', 'Reported.');
    fixture = await openHost(model, {
      dataDir: dataDirWithAgents(
        { name: 'reader', tools: ['gmail_search', 'sender'] },
        { name: 'sender', tools: ['gmail_send', 'gmail_search'] },
      ),
    });
    const response = await fixture.host.runAgentToEnd({ name: 'reader', inputs: { task: 'read only' } });
    expect(response.status).toBe('completed');
    const refused = resultsOf(model, 2)[0] as { error: { code: string; message: string } };
    expect(refused.error.code).toBe('not_allowed');
    const lineage = await fixture.host.invoke('runs.lineage', { runId: response.runId });
    expect(lineage.nodes[1]?.grantedTools).toEqual(['gmail_search']);
    expect(
      storeOf(fixture.host)
        .actions.byThread(response.threadId)
        .some((action) => action.tool === 'gmail_send' && action.state === 'completed'),
    ).toBe(false);
  });

  it('lets the chat model delegate through delegate_to_agent, the task filling the first required input', async () => {
    const model = new ScriptedModel(
      call('delegate_to_agent', { agent: 'helper', task: 'count my tasks' }, 'chat-delegate'),
      [{ type: 'text', text: 'Zero tasks.' }, ...done('Zero tasks.', 'c-done')],
      say('The helper says you have no tasks.'),
    );
    fixture = await openHost(model, {
      dataDir: dataDirWithAgents({ name: 'helper', tools: ['list_tasks'] }),
    });
    const response = await fixture.host.runToEnd({ prompt: 'Ask the helper how many tasks I have' });

    expect(response).toMatchObject({ status: 'completed', summary: 'The helper says you have no tasks.' });
    expect(model.requests[0]?.tools.map((tool) => tool.name)).toEqual(
      expect.arrayContaining(['helper', 'researcher', 'delegate_to_agent']),
    );
    expect(model.requests[1]?.messages[0]?.parts[0]).toEqual({
      kind: 'text',
      text: 'Do this: count my tasks',
    });
    const lineage = await fixture.host.invoke('runs.lineage', { runId: response.runId });
    // Under a chat run the child is at depth 1 and gets its whole toolConfig (the chat run has every tool).
    expect(lineage.nodes).toMatchObject([{ role: 'helper', depth: 1, grantedTools: ['list_tasks'] }]);
    expect(lineage.total.inputTokens).toBe(10);

    const thread = await fixture.host.invoke('thread.get', { threadId: response.threadId });
    expect(thread.messages.map((message) => message.text)).toContain('Zero tasks.');
    // The child's run names its parent, so a reopened conversation follows the parent.
    expect(thread.runs.map((run) => run.parentRunId)).toEqual([undefined, response.runId]);
    // And it comes with the run's agent tree, so the child's words are drawn in its block from the first drawing.
    expect(thread.lineage).toEqual(lineage.nodes);
    // The next chat run's history is the person's conversation with Deputy, not what the child said.
    model.script(say('You are welcome.'));
    await fixture.host.runToEnd({ prompt: 'Thanks', threadId: response.threadId });
    const history = JSON.stringify(model.requests[3]?.messages);
    expect(history).toContain('The helper says you have no tasks.');
    expect(history).not.toContain('Zero tasks.');
    // A run that delegated to no one adds nothing to it.
    const again = await fixture.host.invoke('thread.get', { threadId: response.threadId });
    expect(again.lineage).toEqual(lineage.nodes);
  });

  it('a delegation to an agent that is not there tells the model which agents there are, at most 20', async () => {
    const model = new ScriptedModel(
      call('delegate_to_agent', { agent: 'helpr', task: 'count my tasks' }, 'typo'),
      say('I could not find that helper.'),
    );
    const many = Array.from({ length: 22 }, (_, i) => ({
      name: `aide_${String(i).padStart(2, '0')}`,
      tools: [],
    }));
    fixture = await openHost(model, { dataDir: dataDirWithAgents({ name: 'helper', tools: [] }, ...many) });
    await fixture.host.invoke('agents.setEnabled', { name: 'reviewer', enabled: false });
    await fixture.host.runToEnd({ prompt: 'Ask the helper how many tasks I have' });
    const refused = resultsOf(model, 1)[0] as { error: { kind: string; message: string } };
    expect(refused.error.kind).toBe('unknown_agent');
    // Built-in first, then the person's, by file; an agent turned off is not offered. 26 in all, 20 named.
    expect(refused.error.message).toBe(
      'There is no agent named "helpr" that is turned on. The agents you can hand work to: inbox_triage, ' +
        'meeting_scheduler, researcher, aide_00, aide_01, aide_02, aide_03, aide_04, aide_05, aide_06, aide_07, ' +
        'aide_08, aide_09, aide_10, aide_11, aide_12, aide_13, aide_14, aide_15, aide_16 (and 6 more).',
    );
  });

  it('refuses a fourth level', async () => {
    const model = new ScriptedModel(
      call('level_two', { task: 'go down' }, 'l1'),
      call('level_three', { task: 'go down' }, 'l2'),
      call('level_four', { task: 'go down' }, 'l3'),
      done('Level three did it itself.', 'd3'),
      done('Two done.', 'd2'),
      done('One done.', 'd1'),
    );
    fixture = await openHost(model, {
      dataDir: dataDirWithAgents(
        { name: 'level_one', tools: ['level_two'] },
        { name: 'level_two', tools: ['level_three'] },
        { name: 'level_three', tools: ['level_four'] },
        { name: 'level_four', tools: [] },
      ),
    });
    const response = await fixture.host.runAgentToEnd({ name: 'level_one', inputs: { task: 'dig' } });
    expect(response.status).toBe('completed');
    const refused = resultsOf(model, 3)[0] as { error: { kind: string; message: string } };
    expect(refused.error.kind).toBe('depth_exceeded');
    expect(refused.error.message).toContain('at most 3 levels deep, and this would be level 4');
    const lineage = await fixture.host.invoke('runs.lineage', { runId: response.runId });
    expect(lineage.nodes.map((node) => node.role)).toEqual(['level_one', 'level_two', 'level_three']);
  });

  /** A coordinator whose messenger child asks to send a mail to Sam; then `after`. Answers what was sent. */
  async function openMessengerHost(...after: ModelStreamEvent[][]) {
    const sent: { to: string[]; body: string }[] = [];
    const model = new ScriptedModel(
      call('messenger', { task: 'tell sam' }, 'p-msg'),
      call('send_message', { to: ['sam@x.io'], body: 'Hi Sam', intent: 'tell', confidence: 0.9 }, 'c-send'),
      ...after,
    );
    fixture = await openHost(model, {
      tools: syntheticMailTools(sent),
      dataDir: dataDirWithAgents(
        { name: 'coordinator', tools: ['messenger', 'send_message'] },
        { name: 'messenger', displayName: 'Mail runner', tools: ['send_message'] },
      ),
    });
    return { host: fixture.host, sent };
  }

  it('shows a child’s approval with its lineage, and the tree finishes once it is approved', async () => {
    const { host, sent } = await openMessengerHost(
      done('Sent.', 'c-done'),
      done('Messenger sent it.', 'p-done'),
    );
    const run = host.runAgentToEnd({ name: 'coordinator', inputs: { task: 'let sam know' } });
    await until(() => host.approvals.pending().length > 0);
    const [approval] = host.approvals.pending();
    // Named as the person knows them: a display name where the definition has one, else its name in words.
    expect(approval?.reason).toMatch(/^Coordinator → Mail runner wants to send an email to sam@x\.io\. /);
    expect(sent).toEqual([]);
    await host.approvals.decide({ approvalId: approval?.id ?? '', decision: 'approve' });
    const response = await run;
    expect(response).toMatchObject({ status: 'completed', summary: 'Note: Messenger sent it.' });
    expect(sent).toEqual([{ to: ['sam@x.io'], body: 'Hi Sam' }]);
  });

  it('cancelling the parent while its child waits for approval rejects what the child waits for', async () => {
    const { host, sent } = await openMessengerHost();
    const store = storeOf(host);
    const { started, done: ended } = host.agents.start({
      name: 'coordinator',
      inputs: { task: 'let sam know' },
    });
    await until(() => host.approvals.pending().length > 0);
    const [approval] = host.approvals.pending();
    expect(host.cancelRun(started.runId)).toBe(true);
    expect((await ended).status).toBe('failed');
    // Nothing waits any more: the person who stopped Deputy cannot be asked, nor send the mail, afterwards.
    await until(() => host.approvals.pending().length === 0);
    await expect(
      host.approvals.decide({ approvalId: approval?.id ?? '', decision: 'approve' }),
    ).rejects.toMatchObject({ code: 'approval_decided' });
    expect(sent).toEqual([]);
    const childId = approval?.runId ?? '';
    expect(store.runs.get(childId)).toMatchObject({ status: 'failed', errorCode: 'cancelled' });
    expect(store.lineage.byRun(childId)?.status).toBe('failed');
  });

  it('cancelling the parent cancels its child', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const model = new ScriptedModel(call('slow_child', { task: 'wait' }, 'p-slow'));
    // The child's model answers only once released, or stops when its run is cancelled (as Gemini's client does).
    const slow = {
      stream: async function* (request: Parameters<ScriptedModel['stream']>[0]) {
        if (model.remaining > 0) {
          yield* model.stream(request);
          return;
        }
        const stopped = new Promise<void>((resolve) =>
          request.signal.addEventListener('abort', () => resolve()),
        );
        await Promise.race([gate, stopped]);
        if (request.signal.aborted) throw new ModelError('cancelled', 'Stopped.');
        yield* done('Too late.');
      },
    };
    fixture = await openHost(slow, {
      dataDir: dataDirWithAgents(
        { name: 'waiter', tools: ['slow_child'] },
        { name: 'slow_child', tools: [] },
      ),
    });
    const host = fixture.host;
    const { started, done: ended } = host.agents.start({ name: 'waiter', inputs: { task: 'go' } });
    const store = storeOf(host);
    await until(() => store.lineage.children(started.runId).length === 1);
    const childId = store.lineage.children(started.runId)[0]?.runId ?? '';
    await until(() => store.runs.get(childId)?.status === 'planning');
    expect(host.cancelRun(started.runId)).toBe(true);
    release();
    expect((await ended).status).toBe('failed');
    await until(() => store.runs.get(childId)?.status === 'failed');
    expect(store.runs.get(childId)?.errorCode).toBe('cancelled');
    expect(store.lineage.byRun(childId)?.status).toBe('failed');
  });
});
