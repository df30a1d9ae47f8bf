import { afterEach, describe, expect, it } from 'vitest';
import type { RunEvent, RunEventOf } from '../../shared/contract';
import { summarizeToolCall } from '../../shared/tool-summaries';
import { undoQuestion } from '../../renderer/src/features/audit/undo-words';
import { whatWords } from '../../renderer/src/features/audit/audit-words';
import { startFakeSlack, type FakeSlack } from '../fakes/slack/server';
import { collect, openHost, type HostFixture } from '../support/host-fixture';
import { call, say, ScriptedModel } from '../support/scripted-model';

const NOW = new Date('2026-11-28T09:00:00.000Z');
const meta = { intent: 'act for the user', confidence: 0.95 };

let slack: FakeSlack;
let fixture: HostFixture;

/** Deputy acting on its own in Slack (`slack.send` at `autonomy`), asking before it first writes somewhere. */
async function start(model: ScriptedModel, autonomy: 'auto' | 'notify' = 'auto', isFirstContactAsked = true) {
  slack = await startFakeSlack();
  fixture = await openHost(model, { env: slack.env, now: () => NOW });
  await fixture.host.invoke('settings.set', {
    trustLevel: 'autonomous',
    autonomy: { 'slack.send': autonomy },
    requireApprovalForFirstContact: isFirstContactAsked,
  });
  await fixture.host.invoke('connections.connect', { name: 'slack', token: slack.state.issueToken() });
  return collect(fixture.host);
}
afterEach(async () => {
  await fixture.close();
  await slack.close();
});

/** A model that posts `text` to `channel`, then says it did. */
const posting = (channel: string, text: string) =>
  new ScriptedModel(call('slack_send', { channel, text, ...meta }), say('Done.'));

const ofType = <T extends RunEvent['type']>(events: RunEvent[], type: T): RunEventOf<T>[] =>
  events.filter((event): event is RunEventOf<T> => event.type === type);
const asked = (method: string) =>
  slack.requests.filter((request) => request.path === `/api/${method}`).length;

/** The card's line as the chat draws it from the stored thread (after a reload). */
async function storedLines(threadId: string) {
  const { actions } = await fixture.host.invoke('thread.get', { threadId });
  return actions.map((action) =>
    summarizeToolCall(action.tool, action.args, action.state === 'completed', {
      result: action.result,
      names: action.names,
    }),
  );
}

describe('a tool card names a Slack channel given by id as its approval does', () => {
  it('a post to a DM: the tool_call, the result, the stored action, the audit trail and its undo question', async () => {
    const events = await start(posting('D0CAROL001', 'Sent it.'));
    const paused = await fixture.host.runToEnd({ prompt: 'Tell Carol' });
    expect(paused.approval?.preview).toContain('Post to Slack DM with carol.c');

    const [waiting] = ofType(events, 'tool_call');
    const names = { D0CAROL001: 'Slack DM with carol.c' };
    expect(waiting).toMatchObject({ state: 'awaiting_confirmation', names });
    expect(summarizeToolCall('slack_send', waiting?.args ?? {}, false, { names: waiting?.names })).toBe(
      'Post in Slack DM with carol.c',
    );
    expect(await storedLines(paused.threadId)).toEqual(['Post in Slack DM with carol.c']);

    const infoAsked = asked('conversations.info');
    await fixture.host.invoke('approval.decide', {
      approvalId: paused.approval?.id ?? '',
      decision: 'approve',
    });
    // Carried out from the name found for the approval: Slack was not asked again.
    expect(asked('conversations.info')).toBe(infoAsked);
    const [done] = ofType(events, 'tool_result');
    expect(done).toMatchObject({ state: 'completed' });
    expect(done?.result).toMatchObject({
      channel: { id: 'D0CAROL001', label: 'D0CAROL001', name: 'Slack DM with carol.c' },
    });
    expect(await storedLines(paused.threadId)).toEqual(['Posted in Slack DM with carol.c']);

    const entry = (await fixture.host.invoke('audit.list', { tool: 'slack_send' })).entries[0];
    if (!entry) throw new Error('no audit entry');
    // The effect's `after` (what an undo compares with the post as it is now) is as it was: no name in it.
    expect(entry.entityAfter).toEqual({
      channel: 'D0CAROL001',
      ts: expect.any(String),
      threadTs: null,
      text: 'Sent it.',
    });
    expect(undoQuestion(entry)?.question).toMatch(/^Delete this post from Slack DM with carol\.c\? /);
    expect(
      summarizeToolCall(entry.actionType, entry.input as Record<string, unknown>, true, {
        result: entry.output,
      }),
    ).toBe('Posted in Slack DM with carol.c');
    expect(whatWords(entry)).toBe('Posted in Slack DM with carol.c');

    // Its undo's line names the channel too: its entry keeps the post's arguments, and reads the post's names.
    await fixture.host.invoke('audit.undo', { id: entry.id });
    const undo = (await fixture.host.invoke('audit.list', { tool: 'slack_send' })).entries.find(
      (listed) => listed.kind === 'undo',
    );
    if (!undo) throw new Error('no undo entry');
    expect(whatWords(undo)).toBe('Undo: Posted in Slack DM with carol.c');
    expect((await fixture.host.invoke('audit.get', { id: undo.id })).entry.names).toEqual(names);
  });

  it('a post approved after a restart is told to the model as it would have been without one, its name with it', async () => {
    const paused = await (async () => {
      await start(posting('D0CAROL001', 'Sent it.'));
      return fixture.host.runToEnd({ prompt: 'Tell Carol' });
    })();
    // Deputy stops while the post waits, and starts again: the names found before are no longer in its memory.
    await fixture.stop();
    const model = new ScriptedModel(say('Done.'));
    fixture = await openHost(model, { env: slack.env, now: () => NOW, dataDir: fixture.dataDir });
    const events = collect(fixture.host);
    const infoAsked = asked('conversations.info');
    await fixture.host.invoke('approval.decide', {
      approvalId: paused.approval?.id ?? '',
      decision: 'approve',
    });

    // What the post's result says is what the call was decided with, stored with it, not what this session knows.
    const channel = { id: 'D0CAROL001', label: 'D0CAROL001', name: 'Slack DM with carol.c' };
    expect(ofType(events, 'tool_result')[0]?.result).toMatchObject({ channel });
    expect(JSON.stringify(model.requests[0]?.messages.at(-1))).toContain('Slack DM with carol.c');
    expect(asked('conversations.info')).toBe(infoAsked);
    expect(await storedLines(paused.threadId)).toEqual(['Posted in Slack DM with carol.c']);
  });

  it('a post Slack refuses is told to the model by its channel’s name and id, after a restart as live', async () => {
    /** The model's next request once the post to #random (which the person is not in) is approved. */
    const nextRequest = async (isRestarted: boolean) => {
      const live = posting('C0RANDOM01', 'Hello all.');
      await start(live);
      const paused = await fixture.host.runToEnd({ prompt: 'Say hello in random' });
      let model = live;
      if (isRestarted) {
        // Deputy stops while the post waits: the name found for the approval is no longer in its memory.
        await fixture.stop();
        model = new ScriptedModel(say('Done.'));
        fixture = await openHost(model, { env: slack.env, now: () => NOW, dataDir: fixture.dataDir });
      }
      const infoAsked = asked('conversations.info');
      await fixture.host.invoke('approval.decide', {
        approvalId: paused.approval?.id ?? '',
        decision: 'approve',
      });
      // The name comes from what the call was decided with, stored with it: Slack is not asked again.
      expect(asked('conversations.info')).toBe(infoAsked);
      const request = model.requests.at(-1);
      await fixture.close();
      await slack.close();
      return { ...request, signal: null };
    };

    const live = await nextRequest(false);
    const resumed = await nextRequest(true);
    await start(new ScriptedModel()); // for afterEach, which closes the test's last host and Slack

    expect(JSON.stringify(live.messages?.at(-1))).toContain(
      'You are not a member of #random (C0RANDOM01). Join it in Slack first',
    );
    expect(resumed).toEqual(live);
  });

  it('a post turned down still names its channel, live and once the conversation is read again', async () => {
    const events = await start(posting('C0RANDOM01', 'Hello all.'));
    const paused = await fixture.host.runToEnd({ prompt: 'Say hello in random' });
    await fixture.host.invoke('approval.decide', {
      approvalId: paused.approval?.id ?? '',
      decision: 'reject',
    });

    expect(ofType(events, 'tool_call')[0]?.names).toEqual({ C0RANDOM01: '#random' });
    const { actions } = await fixture.host.invoke('thread.get', { threadId: paused.threadId });
    expect(actions).toMatchObject([{ state: 'rejected', names: { C0RANDOM01: '#random' } }]);
    expect(await storedLines(paused.threadId)).toEqual(['Post in #random']);
    // The audit trail's line too, though a post turned down has no result to name it.
    const [entry] = (await fixture.host.invoke('audit.list', { tool: 'slack_send' })).entries;
    if (!entry) throw new Error('no audit entry');
    expect(whatWords(entry)).toBe('Post in #random');
  });

  it('a read names the channel from its result, and from the names its look-up left for the next call', async () => {
    const events = await start(
      new ScriptedModel(
        call('slack_read', { channel: 'C0RANDOM01' }),
        call('slack_read', { channel: 'C0RANDOM01', limit: 5 }),
        say('Nothing new.'),
      ),
    );
    const done = await fixture.host.runToEnd({ prompt: 'What is new in random?' });
    expect(done.status).toBe('completed');

    const [first, second] = ofType(events, 'tool_call');
    // The first read could not know the name before it asked; the second knew it without asking again.
    expect(first).not.toHaveProperty('names');
    expect(second?.names).toEqual({ C0RANDOM01: '#random' });
    expect(asked('conversations.info')).toBe(1);
    for (const result of ofType(events, 'tool_result'))
      expect(result.result).toMatchObject({ channel: { id: 'C0RANDOM01', name: '#random' } });
    expect(await storedLines(done.threadId)).toEqual(['Read #random', 'Read #random']);
  });

  it('a channel Slack cannot name reads by its id, as before, and the result says no name', async () => {
    const events = await start(
      new ScriptedModel(call('slack_read', { channel: 'C0RANDOM01' }), say('Nothing.')),
    );
    slack.inject({ match: /conversations\.info$/, response: { status: 500, text: 'Internal Server Error' } });
    const done = await fixture.host.runToEnd({ prompt: 'What is new in random?' });
    expect(done.status).toBe('completed');
    const [result] = ofType(events, 'tool_result');
    expect(result?.result).toMatchObject({ channel: { id: 'C0RANDOM01', label: 'C0RANDOM01' } });
    expect(result?.result).not.toHaveProperty('channel.name');
    expect(await storedLines(done.threadId)).toEqual(['Read Slack channel C0RANDOM01']);
    expect(fixture.errorMessages).toEqual([]);
  });

  it('the notice of a post done on its own says where as the approval would', async () => {
    const events = await start(posting('D0CAROL001', 'Sent it.'), 'notify', false);
    const done = await fixture.host.runToEnd({ prompt: 'Tell Carol' });
    expect(done.status).toBe('completed');
    expect(ofType(events, 'notice').map((notice) => notice.message)).toEqual([
      'Done: Post to Slack DM with carol.c',
    ]);
    expect(await storedLines(done.threadId)).toEqual(['Posted in Slack DM with carol.c']);
  });
});
