import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { HangingModel, NoteWorld, until, waitForRun } from '../support/durable-kit';
import { openHost, type HostFixture } from '../support/host-fixture';
import { call, say, ScriptedModel } from '../support/scripted-model';

const open: HostFixture[] = [];
let dataDir: string | undefined;
afterEach(async () => {
  for (const fixture of open.splice(0)) await fixture.stop().catch(() => {});
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

it('a run left unfinished while side effects are paused waits at the next start, and goes on once when the person resumes', async () => {
  const world = new NoteWorld();
  dataDir = mkdtempSync(join(tmpdir(), 'deputy-pause-held-'));
  const stalling = new HangingModel(
    1,
    call('post_note', { text: 'first', intent: 'post', confidence: 0.95 }, 'c-1'),
  );
  const first = await openHost(stalling, { dataDir, tools: world.tools() });
  open.push(first);
  await first.host.invoke('settings.set', { trustLevel: 'autonomous' });
  const { runId, threadId } = first.host.startRun({ prompt: 'Post a note, then finish' });
  await until(() => stalling.isHung);
  expect(world.calls.post).toBe(1);
  await first.host.invoke('sideEffects.set', { isPaused: true });
  await first.stop();
  open.splice(0);

  const after = new ScriptedModel(
    call('post_note', { text: 'second', intent: 'post', confidence: 0.95 }, 'c-2'),
    say('Posted both.'),
  );
  const second = await openHost(after, { dataDir, tools: world.tools() });
  open.push(second);
  // Held: opening Deputy while paused asks the model nothing and runs nothing.
  await new Promise((resolve) => setImmediate(resolve));
  expect(after.requests).toHaveLength(0);
  const held = (await second.host.invoke('thread.get', { threadId })).runs.find((run) => run.id === runId);
  expect(held?.status).not.toBe('completed');

  await second.host.invoke('sideEffects.set', { isPaused: false });
  const run = await waitForRun(second.host, threadId, runId);
  expect(run).toMatchObject({ status: 'completed', resumed: true, summary: 'Posted both.' });
  expect(world.calls.post).toBe(2);
});
