import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EFFECT_CUT_OFF, READ_CUT_OFF } from '../../electron/engine/cut-off-calls';
import type { Host } from '../../electron/host/create-host';
import type { ModelClient } from '../../electron/llm/model-client';
import type { RunEvent } from '../../shared/contract';
import { callOf, NoteWorld, refuseOutcomeOnce, storeOf, until, waitForRun } from '../support/durable-kit';
import { openHost, type HostFixture } from '../support/host-fixture';
import { call, say, ScriptedModel, turnOf } from '../support/scripted-model';

/*
 * A call that threw (here: the disk refused the write of its outcome) ends its run. The call must not read as
 * running for ever: a read is marked failed, a side effect (which may have happened) `unknown`, in the ledger, on
 * its card and in the audit trail, live and after a restart, and nothing is run again.
 */

const open: HostFixture[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const fixture of open.splice(0)) await fixture.stop().catch(() => {});
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

let world = new NoteWorld();
const begin = async (model: ModelClient, dataDir?: string) => {
  const dir = dataDir ?? mkdtempSync(join(tmpdir(), 'deputy-cut-off-'));
  if (!dirs.includes(dir)) dirs.push(dir);
  const fixture = await openHost(model, { dataDir: dir, tools: world.tools() });
  open.push(fixture);
  return fixture;
};

const eventsOf = (host: Host, runId: string): RunEvent[] => {
  const events: RunEvent[] = [];
  host.subscribe('run.events', { runId }, (event) => events.push(event))();
  return events;
};

describe('a call that threw when its run ended', () => {
  it('is failed when it only read: on its card, in the ledger and in the audit trail, also after a restart', async () => {
    world = new NoteWorld();
    const first = await begin(new ScriptedModel(turnOf(call('read_notes', {}, 'c-read')), say('Read.')));
    const hasRefused = refuseOutcomeOnce(first.host, 'read_notes');
    const { runId, threadId } = first.host.startRun({ prompt: 'Read the board' });
    const run = await waitForRun(first.host, threadId, runId);
    expect(hasRefused()).toBe(true);
    expect(run).toMatchObject({ status: 'failed', errorCode: 'internal' });

    const failed = {
      card: {
        state: 'failed',
        ledgerState: 'failed',
        error: READ_CUT_OFF,
        errorCode: 'internal',
        label: 'Failed',
      },
      audit: { status: 'failed', errorMessage: READ_CUT_OFF },
    };
    const live = await callOf(first.host, threadId, 'read_notes');
    expect(live).toMatchObject(failed);
    // The live card hears it before the run's ending.
    const events = eventsOf(first.host, runId);
    const settled = events.findIndex(
      (event) => event.type === 'tool_result' && event.actionId === live.id && event.state === 'failed',
    );
    expect(settled).toBeGreaterThan(-1);
    expect(events.slice(settled).map(({ type }) => type)).toEqual([
      'tool_result',
      'error',
      'status',
      'result',
    ]);
    await first.stop();

    const again = await begin(new ScriptedModel(), first.dataDir);
    expect(await callOf(again.host, threadId, 'read_notes')).toMatchObject(failed);
    expect(storeOf(again.host).runs.get(runId)).toMatchObject({ status: 'failed', errorCode: 'internal' });
    expect(world.calls.read).toBe(1);
  });

  it('is not sure it happened when it had a side effect, and is never done again', async () => {
    world = new NoteWorld();
    const model = new ScriptedModel(
      turnOf(call('post_note', { text: 'hello', intent: 'post a note', confidence: 0.95 }, 'c-post')),
      say('Posted.'),
    );
    const first = await begin(model);
    const { host } = first;
    const store = storeOf(host);
    const paused = await host.runToEnd({ prompt: 'Post hello' });
    expect(paused.status).toBe('awaiting_confirmation');
    const [approval] = host.approvals.pending();
    if (!approval) throw new Error('the post was never held for approval');
    // The post is done, and the disk refuses the write of its outcome.
    let hasRefused = false;
    store.db.function('refuse_post_outcome', () => {
      if (hasRefused) return 0;
      hasRefused = true;
      throw new Error('disk I/O error');
    });
    store.db.exec(`CREATE TEMP TRIGGER refuse_post_outcome BEFORE UPDATE ON main.actions
      WHEN NEW.tool = 'post_note' AND NEW.state IN ('committed', 'failed') BEGIN SELECT refuse_post_outcome(); END`);
    await host.approvals.decide({ approvalId: approval.id, decision: 'approve' }).catch(() => null);
    const run = await waitForRun(host, paused.threadId, paused.runId);
    expect(hasRefused).toBe(true);
    expect(run).toMatchObject({ status: 'failed', errorCode: 'internal' });
    expect(world.notes).toHaveLength(1);

    const unsure = {
      card: {
        state: 'awaiting_confirmation',
        ledgerState: 'unknown',
        error: EFFECT_CUT_OFF,
        errorCode: 'outcome_unknown',
        label: 'Not sure it happened — waiting for you',
      },
      audit: { status: 'pending', errorMessage: EFFECT_CUT_OFF },
    };
    const live = await callOf(host, paused.threadId, 'post_note');
    expect(live).toMatchObject(unsure);
    expect(eventsOf(host, paused.runId)).toContainEqual(
      expect.objectContaining({
        type: 'tool_result',
        actionId: live.id,
        state: 'awaiting_confirmation',
        error: EFFECT_CUT_OFF,
      }),
    );
    await first.stop();

    const again = await begin(new ScriptedModel(), first.dataDir);
    await until(() => storeOf(again.host).runs.get(paused.runId)?.status === 'failed');
    expect(await callOf(again.host, paused.threadId, 'post_note')).toMatchObject(unsure);
    expect(again.host.approvals.pending()).toEqual([]);
    expect(world.calls.post).toBe(1);
    expect(world.notes).toHaveLength(1);
  });

  it('leaves an undo of one of its calls that is still running to that undo', async () => {
    world = new NoteWorld();
    const model = new ScriptedModel(
      turnOf(call('post_note', { text: 'hello', intent: 'post a note', confidence: 0.95 }, 'c-post')),
      say('Left it.'),
    );
    const { host } = await begin(model);
    const store = storeOf(host);
    const paused = await host.runToEnd({ prompt: 'Post hello' });
    const [approval] = host.approvals.pending();
    if (!approval) throw new Error('the post was never held for approval');
    // An undo taken from the audit trail carries the run of the call it undoes; this one is still being done.
    const now = new Date().toISOString();
    const undo = { id: 'undo-action', runId: paused.runId, threadId: paused.threadId };
    store.transaction(() => {
      store.actions.create(
        {
          ...undo,
          callId: 'undo:entry',
          tool: 'post_note',
          args: {},
          state: 'approved',
          hasSideEffects: true,
        },
        now,
      );
      store.actions.markStarted(undo.id, ['approved'], 'undo-key', now);
    });
    await host.approvals.decide({ approvalId: approval.id, decision: 'reject' });
    expect(await waitForRun(host, paused.threadId, paused.runId)).toMatchObject({ status: 'completed' });
    expect(store.actions.get(undo.id)).toMatchObject({ ledgerState: 'started', error: null });
  });
});
