import Database from 'better-sqlite3';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ModelClient, ModelStreamEvent } from '../../electron/llm/model-client';
import { ServiceError } from '../../electron/tools/service-errors';
import {
  crash,
  endingOf,
  HangingModel,
  NoteWorld,
  storeOf,
  transient,
  until,
  waitForRun,
} from '../support/durable-kit';
import { openHost, type HostFixture } from '../support/host-fixture';
import { ENDED_BY_DEPUTY } from '../../electron/engine/settled-by-deputy';
import { refusalForGone } from '../../shared/rejection-words';
import { call, say, ScriptedModel, turnOf } from '../support/scripted-model';
import { syntheticMailTools } from '../support/synthetic-tools';

const open: HostFixture[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const fixture of open.splice(0)) await fixture.stop().catch(() => {});
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const post = (text: string, callId = 'c-post'): ModelStreamEvent[] =>
  call('post_note', { text, intent: 'post a note', confidence: 0.95 }, callId);

/** A call of the synthetic send_message tool: it waits for approval (email.send is `confirm` by default). */
const mailToSam = (body: string): ModelStreamEvent[] =>
  call('send_message', { to: ['sam@example.com'], body, intent: 'send', confidence: 0.95 }, 'c-mail');

async function host(
  model: ModelClient,
  world: NoteWorld,
  dataDir?: string,
  extra: ReturnType<typeof syntheticMailTools> = [],
): Promise<HostFixture> {
  const dir = dataDir ?? mkdtempSync(join(tmpdir(), 'deputy-durable-'));
  if (!dataDir) dirs.push(dir);
  const fixture = await openHost(model, { dataDir: dir, tools: [...world.tools(), ...extra] });
  open.push(fixture);
  return fixture;
}

/** Two copies of a data folder, for the live run and the resumed one to go on from the same point. */
function twoCopiesOf(dataDir: string): [string, string] {
  const copy = () => {
    const dir = mkdtempSync(join(tmpdir(), 'deputy-copy-'));
    dirs.push(dir);
    cpSync(dataDir, dir, { recursive: true });
    return dir;
  };
  return [copy(), copy()];
}

async function autonomous(fixture: HostFixture): Promise<void> {
  await fixture.host.invoke('settings.set', { trustLevel: 'autonomous' });
}

describe('crash and resume', () => {
  it('replays a committed call from the ledger instead of running it again, and does not re-ask a logged turn', async () => {
    const world = new NoteWorld();
    const first = new HangingModel(1, post('hello'));
    const a = await host(first, world);
    await autonomous(a);
    const { runId, threadId } = a.host.startRun({ prompt: 'Post hello' });
    await until(() => first.isHung);
    crash(a.host);

    const second = new ScriptedModel(say('Posted it.'));
    const b = await host(second, world, a.dataDir);
    const run = await waitForRun(b.host, threadId, runId);

    expect(run).toMatchObject({ status: 'completed', resumed: true });
    expect(world.calls.post).toBe(1);
    expect(world.notes).toHaveLength(1);
    // The resumed run asks exactly what the crashed one was asking: the turn with the call is not asked again.
    expect(second.requests).toHaveLength(1);
    expect(second.requests[0]?.messages).toEqual(first.requests[1]?.messages);
    const thread = await b.host.invoke('thread.get', { threadId });
    expect(thread.actions.map((action) => action.ledgerState)).toEqual(['committed']);
    // The commit and its checkpoint landed together, so the result came back with the checkpoint.
    const log = storeOf(b.host).events.runtimeByRun(runId);
    expect(log.map((event) => event.type)).toContain('resume');
    expect(log.filter((event) => event.type === 'tool_call_start')).toHaveLength(1);
  });

  it('finds a side effect that happened before the crash and commits it, without sending it again', async () => {
    const world = new NoteWorld();
    world.hang = 'after_effect';
    const a = await host(new ScriptedModel(post('once only')), world);
    await autonomous(a);
    const { runId, threadId } = a.host.startRun({ prompt: 'Post once' });
    await until(() => world.notes.length === 1);
    crash(a.host);
    world.hang = 'none';

    const second = new ScriptedModel(say('Done.'));
    const b = await host(second, world, a.dataDir);
    await waitForRun(b.host, threadId, runId);

    expect(world.calls.post).toBe(1);
    expect(world.notes).toHaveLength(1);
    expect(second.requests[0]?.messages.at(-1)?.parts[0]).toMatchObject({
      kind: 'result',
      result: { posted: true, id: 'note-0' },
    });
    const thread = await b.host.invoke('thread.get', { threadId });
    expect(thread.actions[0]).toMatchObject({ ledgerState: 'committed', state: 'completed' });
    const recovery = storeOf(b.host)
      .events.runtimeByRun(runId)
      .find((event) => event.type === 'recovery');
    expect(recovery?.payload).toMatchObject({ reconciled: 'found' });
    expect(recovery?.toolCallId).toBe('c-post');
  });

  it('asks the user when the effect cannot be found, and approving does it once with the same key', async () => {
    const world = new NoteWorld();
    world.hang = 'before_effect';
    const a = await host(new ScriptedModel(post('maybe')), world);
    await autonomous(a);
    const { runId, threadId } = a.host.startRun({ prompt: 'Post maybe' });
    await until(() => world.calls.post === 1);
    crash(a.host);
    world.hang = 'none';

    const b = await host(new ScriptedModel(say('Posted after all.')), world, a.dataDir);
    await waitForRun(b.host, threadId, runId, ['awaiting_confirmation']);
    expect(world.notes).toHaveLength(0);
    const { approvals } = await b.host.invoke('approval.list', { status: 'pending' });
    expect(approvals).toHaveLength(1);
    expect(approvals[0]).toMatchObject({ tool: 'post_note', rule: 'resume.outcome_unknown' });
    expect(approvals[0]?.reason).toContain('no trace');
    const before = await b.host.invoke('thread.get', { threadId });
    expect(before.actions[0]).toMatchObject({ ledgerState: 'unknown', state: 'awaiting_confirmation' });

    // Its arguments are bound to the key of the first attempt: it can be approved as it was, not edited.
    await expect(
      b.host.invoke('approval.edit', { approvalId: approvals[0]?.id ?? '', args: { text: 'other' } }),
    ).rejects.toMatchObject({ code: 'invalid_input' });
    const response = await b.host.invoke('approval.decide', {
      approvalId: approvals[0]?.id ?? '',
      decision: 'approve',
    });
    expect(response.status).toBe('completed');
    expect(world.notes).toHaveLength(1);
    const after = await b.host.invoke('thread.get', { threadId });
    expect(after.actions[0]).toMatchObject({ ledgerState: 'committed' });
    // The row keeps the key the effect carries: the same one both times.
    const entry = storeOf(b.host).actions.byCall(runId, 'c-post');
    expect(entry?.idempotencyKey).toBe(world.notes[0]?.key);
    expect(entry?.attempts).toBe(2);
  });

  it('asks the user, not re-sends, when the tool has no way to look for its effect', async () => {
    const world = new NoteWorld();
    world.canReconcile = false;
    world.hang = 'after_effect';
    const a = await host(new ScriptedModel(post('unknowable')), world);
    await autonomous(a);
    const { runId, threadId } = a.host.startRun({ prompt: 'Post' });
    await until(() => world.notes.length === 1);
    crash(a.host);
    world.hang = 'none';

    const b = await host(new ScriptedModel(say('ok')), world, a.dataDir);
    await waitForRun(b.host, threadId, runId, ['awaiting_confirmation']);
    expect(world.calls.post).toBe(1);
    const { approvals } = await b.host.invoke('approval.list', { status: 'pending' });
    expect(approvals[0]?.reason).toContain('cannot check');
  });

  it('simply runs a read-only call again', async () => {
    const world = new NoteWorld();
    world.hang = 'before_effect';
    const a = await host(new ScriptedModel(call('read_notes', {}, 'c-read')), world);
    const { runId, threadId } = a.host.startRun({ prompt: 'Read the board' });
    await until(() => world.calls.read === 1);
    crash(a.host);
    world.hang = 'none';

    const b = await host(new ScriptedModel(say('The board is empty.')), world, a.dataDir);
    const run = await waitForRun(b.host, threadId, runId);
    expect(run.status).toBe('completed');
    expect(world.calls.read).toBe(2);
    const { approvals } = await b.host.invoke('approval.list', { status: 'pending' });
    expect(approvals).toHaveLength(0);
  });

  it('keeps a pending approval through a crash, and the decision then runs it', async () => {
    const world = new NoteWorld();
    const sent: { to: string[]; body: string }[] = [];
    const mail = mailToSam('Hi Sam');
    const a = await host(new ScriptedModel(mail), world, undefined, syntheticMailTools(sent));
    const response = await a.host.runToEnd({ prompt: 'Mail Sam' });
    expect(response.status).toBe('awaiting_confirmation');
    crash(a.host);

    const b = await host(new ScriptedModel(say('Sent.')), world, a.dataDir, syntheticMailTools(sent));
    // Still paused: a pending approval is not a run to resume.
    const thread = await b.host.invoke('thread.get', { threadId: response.threadId });
    expect(thread.runs[0]).toMatchObject({ status: 'awaiting_confirmation' });
    const { approvals } = await b.host.invoke('approval.list', { status: 'pending' });
    const approved = await b.host.invoke('approval.decide', {
      approvalId: approvals[0]?.id ?? '',
      decision: 'approve',
    });
    expect(approved.status).toBe('completed');
    expect(sent).toHaveLength(1);
  });

  it('acts on an approval that was decided just before the crash, once', async () => {
    const world = new NoteWorld();
    const sent: { to: string[]; body: string }[] = [];
    const mail = mailToSam('Hi Sam');
    const a = await host(new ScriptedModel(mail), world, undefined, syntheticMailTools(sent));
    const response = await a.host.runToEnd({ prompt: 'Mail Sam' });
    const { approvals } = await a.host.invoke('approval.list', { status: 'pending' });
    // The decision is recorded, then Deputy dies before it acts on it.
    storeOf(a.host).approvals.claim(
      approvals[0]?.id ?? '',
      'approved',
      new Date().toISOString(),
      null,
      'person',
    );
    crash(a.host);

    const b = await host(new ScriptedModel(say('Sent.')), world, a.dataDir, syntheticMailTools(sent));
    const run = await waitForRun(b.host, response.threadId, response.runId);
    expect(run).toMatchObject({ status: 'completed', resumed: true });
    expect(sent).toHaveLength(1);
  });

  it.each([
    { reason: 'Not in that channel', said: 'Not in that channel', secret: null },
    // Read alone, the reason's secret is found (as it was stored); inside the model's sentence it was not.
    { reason: 'redis-cli\nAUTH s3cretpass', said: 'AUTH [redacted]', secret: 's3cretpass' },
    // The person's reason in words Deputy writes when it turns a call down itself: still the person's.
    {
      reason: ENDED_BY_DEPUTY.planCancelled,
      said: `The user rejected this action: ${ENDED_BY_DEPUTY.planCancelled}`,
      secret: null,
    },
    {
      reason: refusalForGone('files', 'removed').note,
      said: 'The user rejected this action: Turned down by Deputy',
      secret: null,
    },
  ])(
    'tells the model of a call turned down just before the crash what the live run would have, the reason with it ($said)',
    async ({ reason, said, secret }) => {
      // One clock for every start, so that the requests differ only in what the runs were told.
      const at = new Date('2026-11-28T09:00:00.000Z');
      const start = async (model: ModelClient, dir: string) => {
        const fixture = await openHost(model, { dataDir: dir, tools: world.tools(), now: () => at });
        open.push(fixture);
        return fixture;
      };
      const world = new NoteWorld();
      const first = mkdtempSync(join(tmpdir(), 'deputy-durable-'));
      dirs.push(first);
      const a = await start(new ScriptedModel(post('turned down')), first);
      const paused = await a.host.runToEnd({ prompt: 'Post it' });
      expect(paused.status).toBe('awaiting_confirmation');
      const approvalId = (await a.host.invoke('approval.list', { status: 'pending' })).approvals[0]?.id ?? '';
      crash(a.host);
      const [live, resumed] = twoCopiesOf(first);

      // Live: the person turns it down, and the run goes on at once.
      const liveModel = new ScriptedModel(say('Left it.'));
      const b = await start(liveModel, live);
      await b.host.invoke('approval.decide', { approvalId, decision: 'reject', reason });
      // Resumed: the decision is recorded, then Deputy dies before it acts on it, and goes on at the next start.
      const c = await start(new ScriptedModel(), resumed);
      storeOf(c.host).approvals.claim(approvalId, 'rejected', at.toISOString(), reason, 'person');
      crash(c.host);
      const resumedModel = new ScriptedModel(say('Left it.'));
      const d = await start(resumedModel, resumed);
      expect(await waitForRun(d.host, paused.threadId, paused.runId)).toMatchObject({ resumed: true });

      const [liveRequest, resumedRequest] = [liveModel, resumedModel].map((model) => {
        const request = model.requests[0];
        return request && { ...request, signal: null };
      });
      expect(JSON.stringify(resumedRequest?.messages.at(-1))).toContain(said);
      expect(resumedRequest).toEqual(liveRequest);
      if (secret) expect(JSON.stringify(liveRequest)).not.toContain(secret);
      expect(world.notes).toHaveLength(0);
    },
  );

  it.each([
    { ending: 'expired', claim: ['expired', null] as const },
    { ending: 'superseded by a new message', claim: ['rejected', ENDED_BY_DEPUTY.superseded.note] as const },
  ])(
    'ends a run whose approval Deputy settled ($ending) just before the crash as the live run ended, telling the model nothing',
    async ({ ending, claim }) => {
      const at = new Date('2026-11-28T09:00:00.000Z');
      let clock = at;
      const world = new NoteWorld();
      const start = async (model: ModelClient, dir: string) => {
        const fixture = await openHost(model, { dataDir: dir, tools: world.tools(), now: () => clock });
        open.push(fixture);
        return fixture;
      };
      const first = mkdtempSync(join(tmpdir(), 'deputy-durable-'));
      dirs.push(first);
      const a = await start(new ScriptedModel(post('never posted')), first);
      const paused = await a.host.runToEnd({ prompt: 'Post it' });
      expect(paused.status).toBe('awaiting_confirmation');
      const pending = (await a.host.invoke('approval.list', { status: 'pending' })).approvals[0];
      const approvalId = pending?.id ?? '';
      const expiresAt = pending?.expiresAt ?? '';
      crash(a.host);
      const [live, resumed] = twoCopiesOf(first);
      const decidedAt = new Date(Date.parse(expiresAt) + 1);

      // Live: Deputy settles the approval and ends the run at once.
      const b = await start(new ScriptedModel(say('Something else, then.')), live);
      clock = decidedAt;
      if (ending === 'expired') b.host.sweepExpiredApprovals();
      else await b.host.runToEnd({ prompt: 'Never mind', threadId: paused.threadId });
      const liveEnding = await endingOf(b.host, paused.threadId, paused.runId);

      // Resumed: the approval is settled, then Deputy dies before it ends the run, and starts again.
      clock = at;
      const c = await start(new ScriptedModel(), resumed);
      storeOf(c.host).approvals.claim(approvalId, claim[0], decidedAt.toISOString(), claim[1], 'deputy');
      crash(c.host);
      const resumedModel = new ScriptedModel(say('Posted it anyway.'));
      const d = await start(resumedModel, resumed);
      const resumedEnding = await endingOf(d.host, paused.threadId, paused.runId);

      expect(liveEnding.run).toMatchObject({
        status: 'failed',
        errorCode: ending === 'expired' ? 'approval_expired' : 'cancelled',
      });
      expect(resumedEnding).toEqual(liveEnding);
      expect(resumedModel.requests).toHaveLength(0);
      expect(world.notes).toHaveLength(0);
    },
  );

  it('asks again about an approved side effect that was cut off, on the same approval', async () => {
    const world = new NoteWorld();
    const a = await host(new ScriptedModel(post('approved once')), world);
    const paused = await a.host.runToEnd({ prompt: 'Post it' });
    expect(paused.status).toBe('awaiting_confirmation');
    const first = (await a.host.invoke('approval.list', { status: 'pending' })).approvals[0];
    world.hang = 'before_effect';
    void a.host.invoke('approval.decide', { approvalId: first?.id ?? '', decision: 'approve' });
    await until(() => world.calls.post === 1);
    crash(a.host);
    world.hang = 'none';

    const b = await host(new ScriptedModel(say('Posted.')), world, a.dataDir);
    await waitForRun(b.host, paused.threadId, paused.runId, ['awaiting_confirmation']);
    const again = (await b.host.invoke('approval.list', { status: 'pending' })).approvals;
    expect(again).toHaveLength(1);
    expect(again[0]).toMatchObject({ id: first?.id, rule: 'resume.outcome_unknown', status: 'pending' });
    const done = await b.host.invoke('approval.decide', { approvalId: first?.id ?? '', decision: 'approve' });
    expect(done.status).toBe('completed');
    expect(world.notes).toHaveLength(1);
  });

  it('asks, never assumes a yes, when Deputy stopped before a needed approval was written', async () => {
    const world = new NoteWorld();
    const sent: { to: string[]; body: string }[] = [];
    const mail = mailToSam('Hi Sam');
    const a = await host(new ScriptedModel(mail), world, undefined, syntheticMailTools(sent));
    const paused = await a.host.runToEnd({ prompt: 'Mail Sam' });
    crash(a.host);
    // As if the process had died between writing the held call and writing its approval.
    const db = new Database(join(a.dataDir, 'deputy.db'));
    db.prepare('DELETE FROM approvals').run();
    db.close();

    const b = await host(new ScriptedModel(say('Sent.')), world, a.dataDir, syntheticMailTools(sent));
    await until(() => storeOf(b.host).approvals.pending().length === 1);
    expect(sent).toHaveLength(0);
    expect(storeOf(b.host).approvals.pending()[0]).toMatchObject({ rule: 'resume.approval_missing' });
    const run = await waitForRun(b.host, paused.threadId, paused.runId, ['awaiting_confirmation']);
    expect(run.resumed).toBe(true);
  });

  it('closing Deputy mid-run is not cancelling: the run goes on at the next start', async () => {
    const world = new NoteWorld();
    const first = new HangingModel(1, post('before quitting'));
    const a = await host(first, world);
    await autonomous(a);
    const { runId, threadId } = a.host.startRun({ prompt: 'Post, then quit' });
    await until(() => first.isHung);
    await a.stop();

    const b = await host(new ScriptedModel(say('Done after the restart.')), world, a.dataDir);
    const run = await waitForRun(b.host, threadId, runId);
    expect(run).toMatchObject({ status: 'completed', resumed: true, summary: 'Done after the restart.' });
    expect(world.calls.post).toBe(1);
  });

  it('makes the same next request to the model from the same checkpoint', async () => {
    const world = new NoteWorld();
    world.hang = 'after_effect';
    const a = await host(new ScriptedModel(post('determinism')), world);
    await autonomous(a);
    const { runId, threadId } = a.host.startRun({ prompt: 'Post determinism' });
    await until(() => world.notes.length === 1);
    crash(a.host);
    world.hang = 'none';

    const copies = [0, 1].map(() => {
      const dir = mkdtempSync(join(tmpdir(), 'deputy-copy-'));
      dirs.push(dir);
      cpSync(a.dataDir, dir, { recursive: true });
      return dir;
    });
    const models = [new ScriptedModel(say('one')), new ScriptedModel(say('two'))];
    for (const [index, dir] of copies.entries()) {
      const fixture = await host(models[index] ?? new ScriptedModel(), world, dir);
      await waitForRun(fixture.host, threadId, runId);
    }
    const [left, right] = models.map((model) => {
      const request = model.requests[0];
      return request && { ...request, signal: null };
    });
    expect(left).toBeDefined();
    expect(left).toEqual(right);
  });
});

describe('retries', () => {
  it('retries a transient tool failure with growing, jittered delays and the same key', async () => {
    const world = new NoteWorld();
    world.postFailures.push(transient('The board is busy.'), transient('The board timed out.'));
    const model = new ScriptedModel(post('persist'), say('Posted.'));
    const a = await host(model, world);
    await autonomous(a);
    const response = await a.host.runToEnd({ prompt: 'Post' });

    expect(response.status).toBe('completed');
    expect(world.calls.post).toBe(3);
    expect(world.notes).toHaveLength(1);
    expect(a.waits).toHaveLength(2);
    expect(a.waits[0]).toBeGreaterThanOrEqual(500);
    expect(a.waits[0]).toBeLessThanOrEqual(1000);
    expect(a.waits[1]).toBeGreaterThanOrEqual(1000);
    expect(a.waits[1]).toBeLessThanOrEqual(2000);
  });

  it('waits at least what Retry-After asks', async () => {
    const world = new NoteWorld();
    world.postFailures.push(transient('Slow down.', 7));
    const a = await host(new ScriptedModel(post('later'), say('ok')), world);
    await autonomous(a);
    await a.host.runToEnd({ prompt: 'Post' });
    expect(a.waits[0]).toBeGreaterThanOrEqual(7_000);
  });

  it('does not retry an error signature seen twice, and tells the model', async () => {
    const world = new NoteWorld();
    world.postFailures.push(transient('Busy (request 17).'), transient('Busy (request 18).'), transient('x'));
    const model = new ScriptedModel(post('stubborn'), say('It failed.'));
    const a = await host(model, world);
    await autonomous(a);
    await a.host.runToEnd({ prompt: 'Post' });

    expect(world.calls.post).toBe(2);
    expect(model.requests[1]?.messages.at(-1)?.parts[0]).toMatchObject({
      kind: 'result',
      result: { error: { retryable: true, attempts: 2 } },
    });
  });

  it('does not retry a side effect that was cut off by its time limit, and tells the model it may have happened', async () => {
    const world = new NoteWorld();
    world.postFailures.push(
      new ServiceError('timeout', 'post_note did not answer within 60 s.', null, null, true),
    );
    const model = new ScriptedModel(post('slow'), say('I will check first.'));
    const a = await host(model, world);
    await autonomous(a);
    await a.host.runToEnd({ prompt: 'Post' });
    expect(world.calls.post).toBe(1);
    expect(a.waits).toEqual([]);
    const fed = model.requests[1]?.messages.at(-1)?.parts[0];
    expect(fed).toMatchObject({ result: { error: { kind: 'timeout', retryable: false } } });
    expect(JSON.stringify(fed)).toContain('may still have happened');
  });

  it('looks for a side effect cut off by its time limit, and records it as done when the service carried it out', async () => {
    const world = new NoteWorld();
    world.hang = 'after_effect';
    const tools = world
      .tools()
      .map((tool) => (tool.name === 'post_note' ? { ...tool, callTimeoutMs: 50 } : tool));
    const model = new ScriptedModel(post('slow'), say('Posted it.'));
    const dir = mkdtempSync(join(tmpdir(), 'deputy-durable-'));
    dirs.push(dir);
    const fixture = await openHost(model, { dataDir: dir, tools });
    open.push(fixture);
    await autonomous(fixture);
    const { runId, threadId } = await fixture.host.runToEnd({ prompt: 'Post' });

    expect(world.calls.post).toBe(1);
    expect(world.notes).toHaveLength(1);
    const thread = await fixture.host.invoke('thread.get', { threadId });
    expect(thread.actions.map((action) => action.ledgerState)).toEqual(['committed']);
    // The model reads what was found, not a timeout.
    expect(model.requests[1]?.messages.at(-1)?.parts[0]).toMatchObject({
      kind: 'result',
      result: { posted: true, id: 'note-0' },
    });
    const log = storeOf(fixture.host).events.runtimeByRun(runId);
    expect(log.find((event) => event.type === 'recovery')?.payload).toMatchObject({
      reconciled: 'found',
      cutOff: 'timeout',
    });
  });

  it('records a side effect the run was cancelled in the middle of as done when it happened, and as failed when not', async () => {
    for (const [hang, state, notes] of [
      ['after_effect', 'committed', 1],
      ['before_effect', 'failed', 0],
    ] as const) {
      const world = new NoteWorld();
      world.hang = hang;
      const a = await host(new ScriptedModel(post('hello'), say('Posted it.')), world);
      await autonomous(a);
      const { runId, threadId } = a.host.startRun({ prompt: 'Post hello' });
      await until(() => world.calls.post === 1);
      expect(a.host.cancelRun(runId)).toBe(true);
      await waitForRun(a.host, threadId, runId, ['failed', 'completed']);
      const thread = await a.host.invoke('thread.get', { threadId });
      expect(thread.actions.map((action) => action.ledgerState)).toEqual([state]);
      expect(world.notes).toHaveLength(notes);
      // A call that had set off and was not found may still land: the person is told so.
      if (state === 'failed') expect(thread.actions[0]?.error).toContain('found no sign of it yet');
      if (state === 'failed') {
        // Cut off by the stop, not failed: its code says so, on the stream as on the stored call.
        expect(thread.actions[0]?.errorCode).toBe('cancelled');
        const events = storeOf(a.host).events.byRun(runId);
        expect(events.find((event) => (event as { type?: string }).type === 'tool_result')).toMatchObject({
          state: 'failed',
          code: 'cancelled',
        });
      }
    }
  });

  it('does not retry a permanent failure', async () => {
    const world = new NoteWorld();
    world.postFailures.push(new ServiceError('forbidden', 'Not allowed.', 403, null, false));
    const model = new ScriptedModel(post('nope'), say('Not allowed.'));
    const a = await host(model, world);
    await autonomous(a);
    await a.host.runToEnd({ prompt: 'Post' });
    expect(world.calls.post).toBe(1);
    expect(a.waits).toEqual([]);
    expect(model.requests[1]?.messages.at(-1)?.parts[0]).toMatchObject({
      result: { error: { kind: 'forbidden', retryable: false } },
    });
  });
});

describe('execution policy', () => {
  it('batch: runs what it may, holds only the call that needs approval, and answers in call order', async () => {
    const world = new NoteWorld();
    const sent: { to: string[]; body: string }[] = [];
    const mail = mailToSam('Hi');
    const model = new ScriptedModel(
      turnOf(call('read_notes', {}, 'c-read'), mail, post('batch', 'c-post')),
      say('All done.'),
    );
    const a = await host(model, world, undefined, syntheticMailTools(sent));
    await autonomous(a);
    const response = await a.host.runToEnd({ prompt: 'Three things' });

    expect(response.status).toBe('awaiting_confirmation');
    expect(world.calls).toEqual({ post: 1, read: 1 });
    expect(sent).toHaveLength(0);
    const { approvals } = await a.host.invoke('approval.list', { status: 'pending' });
    const done = await a.host.invoke('approval.decide', {
      approvalId: approvals[0]?.id ?? '',
      decision: 'approve',
    });
    expect(done.status).toBe('completed');
    expect(sent).toHaveLength(1);
    const fed = model.requests[1]?.messages.at(-1)?.parts ?? [];
    expect(fed.map((part) => (part.kind === 'result' ? part.callId : part.kind))).toEqual([
      'c-read',
      'c-mail',
      'c-post',
    ]);
  });

  it('interactive: runs one call per turn and tells the model about the others', async () => {
    const world = new NoteWorld();
    const model = new ScriptedModel(
      turnOf(call('read_notes', {}, 'c-read'), post('second', 'c-post')),
      say('One at a time.'),
    );
    const a = await host(model, world);
    await a.host.invoke('settings.set', { trustLevel: 'autonomous', executionPolicy: 'interactive' });
    await a.host.runToEnd({ prompt: 'Two things' });

    expect(world.calls).toEqual({ post: 0, read: 1 });
    const fed = model.requests[1]?.messages.at(-1)?.parts ?? [];
    expect(fed[1]).toMatchObject({ callId: 'c-post', result: { error: { code: 'one_call_per_turn' } } });
  });
});

describe('the run journal', () => {
  it('logs turns and tool calls with run, agent, turn and call ids, and checkpoints every step', async () => {
    const world = new NoteWorld();
    const a = await host(new ScriptedModel(post('journal'), say('ok')), world);
    await autonomous(a);
    const response = await a.host.runToEnd({ prompt: 'Post' });
    const store = storeOf(a.host);
    const log = store.events.runtimeByRun(response.runId);
    expect(log.map((event) => event.type)).toEqual([
      'turn_start',
      'turn_end',
      'tool_call_start',
      'tool_call_end',
      'turn_start',
      'turn_end',
      'completion',
    ]);
    for (const event of log) expect(event).toMatchObject({ runId: response.runId, agentId: 'deputy' });
    expect(log.find((event) => event.type === 'tool_call_end')).toMatchObject({
      turn: 1,
      toolCallId: 'c-post',
    });
    expect(log.at(-1)).toMatchObject({ turn: 2 });
    const stats = store.checkpoints.stats(response.runId);
    // The first state, the turn that asked, the call settled, the final turn (a save that changes nothing —
    // the call started, the ending — writes no row).
    expect(stats.count).toBe(4);
    expect(store.checkpoints.load(response.runId)?.state).toMatchObject({
      step: 2,
      pendingCallIds: [],
      openResults: 0,
    });
  });

  it('routes each turn by policy and records the decision', async () => {
    const world = new NoteWorld();
    const model = new ScriptedModel(call('read_notes', {}, 'c-read'), say('ok'));
    const a = await host(model, world);
    await a.host.invoke('settings.set', { model: 'gemini-2.5-pro', routingPolicy: 'cost' });
    const response = await a.host.runToEnd({ prompt: 'Read' });
    expect(model.requests.map((request) => request.model)).toEqual([
      'gemini-2.5-pro',
      'gemini-2.5-flash-lite',
    ]);
    const routing = storeOf(a.host)
      .events.runtimeByRun(response.runId)
      .filter((event) => event.type === 'turn_start')
      .map((event) => event.payload.routing);
    expect(routing.map((decision) => (decision as { phase: string }).phase)).toEqual(['plan', 'act']);
    expect(routing[1]).toMatchObject({ policy: 'cost', resolved: 'gemini-2.5-flash-lite' });
  });
});
