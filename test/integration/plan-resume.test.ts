import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { crash, NoteWorld, storeOf, until, waitForRun } from '../support/durable-kit';
import { openHost, type HostFixture } from '../support/host-fixture';
import { calls, stepStatus } from '../support/plan-kit';
import { call, say, ScriptedModel } from '../support/scripted-model';

const open: HostFixture[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const fixture of open.splice(0)) await fixture.stop().catch(() => {});
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function host(model: ScriptedModel, world: NoteWorld, dataDir: string): Promise<HostFixture> {
  const fixture = await openHost(model, { dataDir, tools: world.tools() });
  open.push(fixture);
  return fixture;
}

const note = (text: string) => ({ text, intent: 'post a note', confidence: 0.95 });
const PLAN = {
  goal: 'Post two notes, then read the board',
  steps: [
    { id: 'a', title: 'Post A', tool: 'post_note', args: { text: 'A' } },
    { id: 'b', title: 'Post B', tool: 'post_note', args: { text: 'B' } },
    { id: 'read', title: 'Read the board', tool: 'read_notes', args: {}, dependsOn: ['a', 'b'] },
  ],
};

describe('a plan survives a crash mid-step', () => {
  it('resumes where it was, with no step run twice', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'deputy-plan-resume-'));
    dirs.push(dir);
    const world = new NoteWorld();
    world.hang = 'after_effect';
    const first = new ScriptedModel(
      call('propose_plan', PLAN),
      calls(['post_note', note('A'), 'pa'], ['post_note', note('B'), 'pb']),
    );
    const a = await host(first, world, dir);
    await a.host.invoke('settings.set', { trustLevel: 'autonomous', executionPolicy: 'batch' });
    const { runId, threadId } = a.host.startRun({ prompt: 'Post A and B, then read the board' });
    await until(() => world.notes.length === 2);
    // As SIGKILL: both effects happened, neither was committed.
    crash(a.host);
    world.hang = 'none';

    const second = new ScriptedModel(call('read_notes', {}, 'r1'), say('Both notes are up.'));
    const b = await host(second, world, dir);
    const run = await waitForRun(b.host, threadId, runId);
    expect(run).toMatchObject({ status: 'completed', resumed: true });
    expect(world.calls.post).toBe(2);
    expect(world.notes.map((n) => n.text).sort()).toEqual(['A', 'B']);

    const thread = await b.host.invoke('thread.get', { threadId });
    const response = run.summary;
    expect(response).toBe('Both notes are up.');
    expect(thread.actions.map((action) => [action.tool, action.ledgerState])).toEqual([
      ['post_note', 'committed'],
      ['post_note', 'committed'],
      ['read_notes', 'committed'],
    ]);
    // The resumed model was told where the plan stood: both posts done, the read ready.
    expect(JSON.stringify(second.requests[0]?.messages)).toContain('Ready now: read.');
    const plans = await findPlan(b, runId);
    expect(stepStatus(plans)).toEqual({ a: 'done', b: 'done', read: 'done' });
    expect(plans.status).toBe('completed');
  });
});

async function findPlan(fixture: HostFixture, runId: string) {
  const id = storeOf(fixture.host).plans.ofRun(runId)?.id;
  if (!id) throw new Error('the run has no plan');
  return (await fixture.host.invoke('plan.get', { planId: id })).plan;
}
