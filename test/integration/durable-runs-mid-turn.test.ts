import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { COMPLETE_TASK } from '../../electron/engine/completion';
import { ENDED_BY_DEPUTY } from '../../electron/engine/settled-by-deputy';
import type { ModelClient, ModelStreamEvent } from '../../electron/llm/model-client';
import type { Host } from '../../electron/host/create-host';
import type { StoredApproval } from '../../electron/store/approvals-repo';
import type { Tool } from '../../electron/tools/tool';
import type { RunEvent } from '../../shared/contract';
import {
  crash,
  dieMidStep,
  endingOf,
  NoteWorld,
  refuseOutcomeOnce,
  storeOf,
  until,
  waitForRun,
} from '../support/durable-kit';
import { dataDirWithAgents } from '../support/agent-kit';
import { openHost, type HostFixture } from '../support/host-fixture';
import { call, say, ScriptedModel, turnOf } from '../support/scripted-model';
import { syntheticMailTools } from '../support/synthetic-tools';

/*
 * A run Deputy stopped in the middle of a turn: one call of the turn held for approval, another still running.
 * Picked up again, it must end as the live run would have ended, even when the approval's time ran out meanwhile.
 */

const open: HostFixture[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const fixture of open.splice(0)) await fixture.stop().catch(() => {});
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A turn that reads the board (allowed) and posts a note (held for approval: the default trust asks first). */
const readThenPost = () =>
  turnOf(
    call('read_notes', {}, 'c-read'),
    call('post_note', { text: 'never posted', intent: 'post a note', confidence: 0.95 }, 'c-post'),
  );

/** The same with two posts, each held for approval. */
const readThenPostTwice = () =>
  turnOf(
    call('read_notes', {}, 'c-read'),
    call('post_note', { text: 'first', intent: 'post a note', confidence: 0.95 }, 'c-post-1'),
    call('post_note', { text: 'second', intent: 'post a note', confidence: 0.95 }, 'c-post-2'),
  );

describe('a run with one call held for approval while another of its turn still runs', () => {
  const at = new Date('2026-11-28T09:00:00.000Z');
  let clock = at;
  let world = new NoteWorld();
  beforeEach(() => {
    world = new NoteWorld();
  });
  const reopen = async (model: ModelClient, dir: string) => {
    const fixture = await openHost(model, { dataDir: dir, tools: world.tools(), now: () => clock });
    open.push(fixture);
    return fixture;
  };
  const start = async (model: ModelClient) => {
    const dir = mkdtempSync(join(tmpdir(), 'deputy-mid-turn-'));
    dirs.push(dir);
    return reopen(model, dir);
  };
  /** Holds the read until the returned function is called. */
  const holdReads = () => {
    let release = () => {};
    world.readGate = new Promise((resolve) => (release = resolve));
    return release;
  };
  const expiryOf = (fixture: HostFixture) =>
    new Date(Date.parse(storeOf(fixture.host).approvals.pending()[0]?.expiresAt ?? '') + 1);

  /** The run that was paused for the post when its approval expired: the ending every other one must match. */
  const pausedThenExpired = async (turn = readThenPost) => {
    clock = at;
    world.readGate = null;
    const live = await start(new ScriptedModel(turn(), say('Posted it anyway.')));
    const paused = await live.host.runToEnd({ prompt: 'Read the board, then post' });
    expect(paused.status).toBe('awaiting_confirmation');
    clock = expiryOf(live);
    live.host.sweepExpiredApprovals();
    const ending = await endingOf(live.host, paused.threadId, paused.runId);
    expect(ending.run).toMatchObject({ status: 'failed', errorCode: 'approval_expired' });
    return ending;
  };

  /** One post held, or two: each turn ends as the paused run ended, every held call refused with it. */
  const turns = [
    { turn: readThenPost, held: 1, expires: 'the approval expires', expired: 'the approval expired' },
    {
      turn: readThenPostTwice,
      held: 2,
      expires: 'both held calls of the turn expire',
      expired: 'both held calls of the turn expired',
    },
  ];

  it.each(turns)(
    'ends as a paused run ends when $expires before the other call is done, asking the model nothing more',
    async ({ turn, held }) => {
      const liveEnding = await pausedThenExpired(turn);
      expect(liveEnding.actions.filter(({ ledgerState }) => ledgerState === 'rejected')).toHaveLength(held);
      clock = at;
      const release = holdReads();
      const model = new ScriptedModel(turn(), say('Posted it anyway.'));
      const running = await start(model);
      const { runId, threadId } = running.host.startRun({ prompt: 'Read the board, then post' });
      await until(() => world.calls.read === 2 && storeOf(running.host).approvals.pending().length === held);
      clock = expiryOf(running);
      running.host.sweepExpiredApprovals();
      release();

      expect(await endingOf(running.host, threadId, runId)).toEqual(liveEnding);
      expect(model.requests).toHaveLength(1);
      expect(world.notes).toHaveLength(0);
    },
  );

  it.each(turns)(
    'ends as the live run ended when $expired while Deputy was stopped, telling the model nothing',
    async ({ turn, held }) => {
      const liveEnding = await pausedThenExpired(turn);

      // Stopped: the posts wait for approval while the read is still running.
      clock = at;
      world.readGate = new Promise(() => {});
      const first = await start(new ScriptedModel(turn()));
      const { runId, threadId } = first.host.startRun({ prompt: 'Read the board, then post' });
      await until(() => world.calls.read === 2 && storeOf(first.host).approvals.pending().length === held);
      const expiry = expiryOf(first);
      crash(first.host);

      // Deputy starts again after the approvals' time ran out; they expire while the read runs again.
      clock = expiry;
      const release = holdReads();
      const resumedModel = new ScriptedModel(say('Posted it anyway.'));
      const resumed = await reopen(resumedModel, first.dataDir);
      await until(() => world.calls.read === 3);
      resumed.host.sweepExpiredApprovals();
      release();
      const resumedEnding = await endingOf(resumed.host, threadId, runId);

      expect(resumedEnding).toEqual(liveEnding);
      expect(resumedModel.requests).toHaveLength(0);
      expect(world.notes).toHaveLength(0);
    },
  );

  /** A run whose read is still running while its post waits for approval. */
  const heldWhileReading = async () => {
    clock = at;
    const release = holdReads();
    const model = new ScriptedModel(readThenPost(), say('Posted it anyway.'));
    const { host } = await start(model);
    const { runId, threadId } = host.startRun({ prompt: 'Read the board, then post' });
    await until(() => world.calls.read === 1 && storeOf(host).approvals.pending().length === 1);
    const [waiting] = storeOf(host).approvals.pending();
    return { host, model, runId, threadId, waiting, release };
  };

  it('turns down what waits for approval when the person stops the run, so approving it later does nothing', async () => {
    const { host, model, runId, threadId, waiting, release } = await heldWhileReading();
    host.cancelRun(runId);
    release();

    const ending = await endingOf(host, threadId, runId);
    expect(ending.run).toMatchObject({ status: 'failed', errorCode: 'cancelled', errorMessage: 'Stopped.' });
    expect(ending.approvals).toEqual([{ status: 'rejected', decisionNote: 'the run ended' }]);
    expect(ending.actions).toContainEqual({
      state: 'rejected',
      ledgerState: 'rejected',
      // The run's own words, so its card reads as stopped with the run, not as turned down.
      error: 'Stopped.',
      errorCode: undefined,
    });
    await expect(
      host.invoke('approval.decide', { approvalId: waiting?.id ?? '', decision: 'approve' }),
    ).rejects.toMatchObject({ code: 'approval_decided' });
    expect(await endingOf(host, threadId, runId)).toEqual(ending);
    expect(world.notes).toHaveLength(0);
    expect(model.requests).toHaveLength(1);
  });

  it('stays stopped when the person approves a waiting call and then stops the run before it is reached', async () => {
    const { host, model, runId, threadId, waiting, release } = await heldWhileReading();
    // Approved while the read still runs: the decision waits behind the run's work.
    const decided = host.invoke('approval.decide', { approvalId: waiting?.id ?? '', decision: 'approve' });
    host.cancelRun(runId);
    release();

    expect(await decided).toMatchObject({ runId, status: 'failed', summary: 'Stopped.' });
    const ending = await endingOf(host, threadId, runId);
    expect(ending.run).toMatchObject({ status: 'failed', errorCode: 'cancelled', errorMessage: 'Stopped.' });
    expect(ending.approvals).toEqual([{ status: 'approved', decisionNote: null }]);
    expect(ending.actions).toContainEqual({
      state: 'rejected',
      ledgerState: 'rejected',
      error: 'Stopped.',
      errorCode: undefined,
    });
    expect(world.notes).toHaveLength(0);
    expect(model.requests).toHaveLength(1);
  });
});

describe('a run the host ends (not its loop) while a call of its turn waits for approval', () => {
  let world = new NoteWorld();
  beforeEach(() => {
    world = new NoteWorld();
  });
  const ENDED = 'The run ended before this was approved, so Deputy did not do it.';
  const begin = async (model: ModelClient, dir = mkdtempSync(join(tmpdir(), 'deputy-host-ended-'))) => {
    if (!dirs.includes(dir)) dirs.push(dir);
    const fixture = await openHost(model, { dataDir: dir, tools: world.tools() });
    open.push(fixture);
    return fixture;
  };

  /** The held call ends as it does when the person stops such a run: turned down with it, everywhere it is shown. */
  const expectTurnedDownWithRun = async (
    host: Host,
    threadId: string,
    runId: string,
    waiting: StoredApproval,
  ) => {
    const ending = await endingOf(host, threadId, runId);
    expect(ending.run).toMatchObject({ status: 'failed', errorCode: 'internal' });
    expect(ending.approvals).toEqual([{ status: 'rejected', decisionNote: 'the run ended' }]);
    expect(ending.actions).toContainEqual({
      state: 'rejected',
      ledgerState: 'rejected',
      error: ENDED,
      errorCode: undefined,
    });
    const store = storeOf(host);
    expect(store.approvals.get(waiting.id)).toMatchObject({ decidedBy: 'deputy' });
    const entryId = store.audit.idOfAction(waiting.actionId) ?? '';
    expect(store.audit.read(entryId)).toMatchObject({ status: 'failed', errorMessage: ENDED });
    const events: RunEvent[] = [];
    host.subscribe('run.events', { runId }, (event) => events.push(event))();
    const refused = events.findIndex(
      (event) =>
        event.type === 'tool_result' && event.actionId === waiting.actionId && event.state === 'rejected',
    );
    expect(refused).toBeGreaterThan(-1);
    expect(events.slice(refused).map(({ type }) => type)).toEqual([
      'tool_result',
      'error',
      'status',
      'result',
    ]);
    await expect(
      host.invoke('approval.decide', { approvalId: waiting.id, decision: 'approve' }),
    ).rejects.toMatchObject({ code: 'approval_decided' });
    expect(world.notes).toHaveLength(0);
    return ending;
  };

  /** The disk refuses the first write of the read's result: the loop throws, and the host ends the run. */
  const refuseReadResult = (host: Host) => refuseOutcomeOnce(host, 'read_notes');

  it('turns the approval down when the loop throws because the checkpoint that held it could not be written', async () => {
    let release = () => {};
    world.readGate = new Promise((resolve) => (release = resolve));
    const model = new ScriptedModel(readThenPost(), say('Posted it anyway.'));
    const fixture = await begin(model);
    const { host } = fixture;
    const store = storeOf(host);
    const inbox: unknown[] = [];
    host.subscribe('approvals.changed', {}, (changed) => inbox.push(changed));
    // The disk refuses the run's checkpoint once it holds an approval, until it has ended: the approval is written,
    // its checkpoint is not, and the loop throws. The last checkpoint the host finds is from before the approval.
    store.db.exec(`CREATE TRIGGER refuse_checkpoint BEFORE INSERT ON checkpoints
      WHEN EXISTS (SELECT 1 FROM approvals WHERE run_id = NEW.run_id AND status = 'pending')
        AND (SELECT status FROM runs WHERE id = NEW.run_id) <> 'failed'
      BEGIN SELECT RAISE(ABORT, 'disk I/O error'); END`);
    const { runId, threadId } = host.startRun({ prompt: 'Read the board, then post' });
    await until(() => store.approvals.inThread(threadId).length === 1);
    const [waiting] = store.approvals.inThread(threadId);
    if (!waiting) throw new Error('the post was never held for approval');
    release();

    await expectTurnedDownWithRun(host, threadId, runId, waiting);
    expect(fixture.errorMessages).toContain(`run ${runId} failed unexpectedly`);
    expect(inbox.length).toBeGreaterThan(1);
    expect(model.requests).toHaveLength(1);
  });

  it('turns the approval down when the loop throws after the approval was asked for', async () => {
    let release = () => {};
    world.readGate = new Promise((resolve) => (release = resolve));
    const model = new ScriptedModel(readThenPost(), say('Posted it anyway.'));
    const fixture = await begin(model);
    const { host } = fixture;
    const store = storeOf(host);
    const { runId, threadId } = host.startRun({ prompt: 'Read the board, then post' });
    await until(() => world.calls.read === 1 && store.approvals.pending().length === 1);
    const [waiting] = store.approvals.pending();
    if (!waiting) throw new Error('the post was never held for approval');
    refuseReadResult(host);
    release();

    await expectTurnedDownWithRun(host, threadId, runId, waiting);
    expect(fixture.errorMessages).toContain(`run ${runId} failed unexpectedly`);
    expect(model.requests).toHaveLength(1);
  });

  it('ends the run only once the calls of its turn still going have stopped, when one of them throws', async () => {
    let releaseRead = () => {};
    world.readGate = new Promise((resolve) => (releaseRead = resolve));
    // A post that reads whom it reaches before the policy decides (as a Slack post or a mail does), held there.
    let releaseReach = () => {};
    const reachGate = new Promise<void>((resolve) => (releaseReach = resolve));
    let isReaching = false;
    const [postNote, readNotes] = world.tools();
    if (!postNote || !readNotes) throw new Error('the world has no tools');
    const reachingPost: Tool = {
      ...postNote,
      name: 'reaching_post',
      reach: async () => {
        isReaching = true;
        await reachGate;
        return { recipients: [] };
      },
    };
    const model = new ScriptedModel(
      turnOf(
        call('read_notes', {}, 'c-read'),
        call('reaching_post', { text: 'never posted', intent: 'post a note', confidence: 0.95 }, 'c-post'),
      ),
      say('Posted it anyway.'),
    );
    const dir = mkdtempSync(join(tmpdir(), 'deputy-host-ended-'));
    dirs.push(dir);
    const fixture = await openHost(model, { dataDir: dir, tools: [postNote, readNotes, reachingPost] });
    open.push(fixture);
    const { host } = fixture;
    const store = storeOf(host);
    const { runId, threadId } = host.startRun({ prompt: 'Read the board, then post' });
    await until(() => world.calls.read === 1 && isReaching);
    // The read's result cannot be written while the post still reads whom it reaches.
    refuseReadResult(host);
    releaseRead();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(store.runs.get(runId)?.status).toBe('executing');
    releaseReach();
    await waitForRun(host, threadId, runId);
    const [waiting] = store.approvals.inThread(threadId);
    if (!waiting) throw new Error('the post was never held for approval');

    await expectTurnedDownWithRun(host, threadId, runId, waiting);
    expect(fixture.errorMessages).toContain(`run ${runId} failed unexpectedly`);
    expect(model.requests).toHaveLength(1);
  });

  it('turns the approval down when a paused run cannot be picked up again at the next start', async () => {
    const first = await begin(new ScriptedModel(readThenPost()));
    const paused = await first.host.runToEnd({ prompt: 'Read the board, then post' });
    expect(paused.status).toBe('awaiting_confirmation');
    const [waiting] = storeOf(first.host).approvals.pending();
    if (!waiting) throw new Error('the post was never held for approval');
    storeOf(first.host)
      .db.prepare(`UPDATE checkpoints SET state_blob = 'not a state' WHERE run_id = ?`)
      .run(paused.runId);
    await first.stop();

    const model = new ScriptedModel(say('Posted it anyway.'));
    const again = await begin(model, first.dataDir);
    const ending = await expectTurnedDownWithRun(again.host, paused.threadId, paused.runId, waiting);
    expect(ending.run.errorMessage).toMatch(/^Deputy stopped during this run and could not pick it up again/);
    expect(model.requests).toHaveLength(0);
  });
});

/*
 * A parent run whose one turn hands a mail to an agent (a child run, which pauses for the person's approval) and
 * reads the board, and the read throws (its result cannot be written). The parent waits for the child before it
 * ends; the person stops it meanwhile, or Deputy stops and starts again.
 */

const SEND = { to: ['sam@x.io'], body: 'Hi Sam', intent: 'tell', confidence: 0.9 };
const done = (note: string, callId: string): ModelStreamEvent[] =>
  call(COMPLETE_TASK, { result: { note } }, callId);

/** The parent hands the mail to its messenger and reads the board in one turn; the messenger asks to send. */
const script = () =>
  new ScriptedModel(
    turnOf(call('messenger', { task: 'tell sam' }, 'p-msg'), call('read_notes', {}, 'p-read')),
    call('send_message', SEND, 'c-send'),
  );

const eventTypesOf = (host: Host, runId: string): RunEvent['type'][] => {
  const events: RunEvent[] = [];
  host.subscribe('run.events', { runId }, (event) => events.push(event))();
  return events.map(({ type }) => type);
};

describe('a parent whose turn threw while its child waits for approval', () => {
  let world = new NoteWorld();
  let sent: { to: string[]; body: string }[] = [];
  beforeEach(() => {
    world = new NoteWorld();
    sent = [];
  });
  const begin = async (model: ModelClient, dataDir: string) => {
    if (!dirs.includes(dataDir)) dirs.push(dataDir);
    const fixture = await openHost(model, {
      dataDir,
      tools: [...world.tools(), ...syntheticMailTools(sent)],
    });
    open.push(fixture);
    return fixture;
  };

  /** The parent waits for its child, paused for the send, after its read threw (or, `throws: false`, still reads). */
  const childWaits = async (model: ModelClient, { throws }: { throws: boolean }) => {
    let release = () => {};
    world.readGate = new Promise((resolve) => (release = resolve));
    const dataDir = dataDirWithAgents(
      { name: 'coordinator', tools: ['messenger', 'send_message', 'read_notes'] },
      { name: 'messenger', tools: ['send_message'] },
    );
    const fixture = await begin(model, dataDir);
    const { host } = fixture;
    const store = storeOf(host);
    const { started } = host.agents.start({ name: 'coordinator', inputs: { task: 'let sam know' } });
    const { runId, threadId } = started;
    await until(() => world.calls.read === 1 && host.approvals.pending().length === 1);
    const [waiting] = host.approvals.pending();
    if (!waiting) throw new Error('the send was never held for approval');
    const childId = waiting.runId;
    await until(() => store.runs.get(childId)?.status === 'awaiting_confirmation');
    if (throws) {
      const hasRefused = refuseOutcomeOnce(host, 'read_notes');
      release();
      await until(hasRefused);
      // The parent goes on waiting for its child (it ends once the turn's calls still going have stopped).
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(store.runs.get(runId)?.status).toBe('executing');
    }
    return { fixture, host, store, runId, threadId, childId, waiting, release };
  };

  /** How the tree ends when the person stops the parent and nothing threw: the ending every Stop must match. */
  const stoppedWithoutThrow = async () => {
    const { host, runId, threadId, childId, release } = await childWaits(script(), { throws: false });
    expect(host.cancelRun(runId)).toBe(true);
    release();
    const parent = await endingOf(host, threadId, runId);
    const child = await endingOf(host, threadId, childId);
    return { parent, child, childEvents: eventTypesOf(host, childId) };
  };

  it('ends Stopped. when the person stops it, its child stopped with it as any Stop does', async () => {
    const plain = await stoppedWithoutThrow();
    expect(plain.parent.run).toMatchObject({
      status: 'failed',
      errorCode: 'cancelled',
      errorMessage: 'Stopped.',
    });
    world = new NoteWorld();

    const model = script();
    const { fixture, host, store, runId, threadId, childId, waiting } = await childWaits(model, {
      throws: true,
    });
    expect(host.cancelRun(runId)).toBe(true);

    const parent = await endingOf(host, threadId, runId);
    expect(parent.run).toEqual(plain.parent.run);
    // The child, its approval and its card end as they do when a parent is stopped with nothing thrown.
    expect(await endingOf(host, threadId, childId)).toEqual(plain.child);
    expect(eventTypesOf(host, childId)).toEqual(plain.childEvents);
    expect(store.approvals.get(waiting.id)).toMatchObject({
      status: 'rejected',
      decisionNote: ENDED_BY_DEPUTY.stoppedWithParent,
      decidedBy: 'deputy',
    });
    expect(host.approvals.pending()).toEqual([]);
    await expect(
      host.approvals.decide({ approvalId: waiting.id, decision: 'approve' }),
    ).rejects.toMatchObject({ code: 'approval_decided' });
    expect(store.lineage.byRun(childId)?.status).toBe('failed');

    // The read that threw is not lost: the runtime log names it, and Deputy's log keeps its error.
    const read = store.actions.byCall(runId, 'p-read');
    expect(store.events.runtimeByRun(runId)).toContainEqual(
      expect.objectContaining({
        type: 'error',
        toolCallId: 'p-read',
        payload: { tool: 'read_notes', actionId: read?.id, code: 'internal' },
      }),
    );
    const logged = fixture.errorMessages.indexOf(`read_notes of run ${runId} failed unexpectedly`);
    expect(logged).toBeGreaterThan(-1);
    expect(fixture.errors[logged]).toMatchObject({ message: 'disk I/O error' });

    // Nothing ran twice, and nothing more was asked.
    expect(await endingOf(host, threadId, runId)).toEqual(parent);
    expect(sent).toEqual([]);
    expect(world.calls.read).toBe(1);
    expect(model.requests).toHaveLength(2);
  });

  const stops = [
    { how: 'is closed', stop: (fixture: HostFixture) => fixture.stop() },
    { how: 'dies', stop: (fixture: HostFixture) => dieMidStep(fixture.host) },
  ];
  it.each(stops)(
    'goes on after Deputy $how meanwhile and starts again: the approved send happens once',
    async ({ stop }) => {
      const { fixture, runId, threadId, childId } = await childWaits(script(), { throws: true });
      await stop(fixture);

      const model = new ScriptedModel(done('Sent.', 'c-done'), done('Messenger sent it.', 'p-done'));
      const again = await begin(model, fixture.dataDir);
      const store = storeOf(again.host);
      const [approval] = again.host.approvals.pending();
      expect(approval?.runId).toBe(childId);
      await again.host.approvals.decide({ approvalId: approval?.id ?? '', decision: 'approve' });
      const parent = await waitForRun(again.host, threadId, runId);

      expect(parent).toMatchObject({ status: 'completed', summary: 'Note: Messenger sent it.' });
      expect(sent).toEqual([{ to: ['sam@x.io'], body: 'Hi Sam' }]);
      expect(store.lineage.children(runId).map((row) => row.runId)).toEqual([childId]);
      expect(store.runs.get(childId)).toMatchObject({ status: 'completed' });
      // The read, whose result was never written, ran again (it only reads); the parent heard both of its calls.
      expect(world.calls.read).toBe(2);
      const heard = model.requests[1]?.messages
        .at(-1)
        ?.parts.flatMap((part) => (part.kind === 'result' ? [part.callId] : []));
      expect(heard).toEqual(['p-msg', 'p-read']);
      expect(again.host.approvals.pending()).toEqual([]);
      expect(fixture.errorMessages).not.toContain(`run ${runId} failed unexpectedly`);
      // Closing is not stopping: nothing of the first host's ending was written or logged, the run simply went on.
      expect(fixture.errorMessages).not.toContain(`read_notes of run ${runId} failed unexpectedly`);
      expect(store.events.runtimeByRun(runId).filter(({ type }) => type === 'error')).toEqual([]);
    },
  );
});
