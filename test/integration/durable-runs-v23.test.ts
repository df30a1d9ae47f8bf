import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ENDED_BY_DEPUTY } from '../../electron/engine/settled-by-deputy';
import { NoteWorld, storeOf, waitForRun } from '../support/durable-kit';
import { FIXTURE_DATABASES } from '../support/fixture-copies';
import { openHost, type HostFixture } from '../support/host-fixture';
import { say, ScriptedModel } from '../support/scripted-model';

/**
 * A frozen database at schema version 23 (made once by test/fixtures/make-deputy-v23-decided-approvals.ts), from
 * before approvals kept who settled them: two runs paused for a post, each turned down just before Deputy stopped,
 * one by Deputy (the person wrote again), one by the person ('Not in that channel').
 */
const FIXTURE = 'deputy-v23-decided-approvals.db';
const BY_DEPUTY = {
  threadId: '01a222c0-7f2b-71b9-8336-93f585a9d4e1',
  runId: '01a222c0-7f0e-71ea-9041-84c335cbeb92',
};
const BY_PERSON = {
  threadId: '01a222c0-7f7d-7498-9a2a-e90da29d81f7',
  runId: '01a222c0-7f7c-72c6-8924-7f3be37c082f',
};

const open: HostFixture[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const fixture of open.splice(0)) await fixture.stop().catch(() => {});
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('approvals turned down before Deputy kept who decided (version 23)', () => {
  it('are read by their note as before: the run Deputy was ending ends, the one the person turned down goes on', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'deputy-v23-'));
    dirs.push(dataDir);
    copyFileSync(join(FIXTURE_DATABASES, FIXTURE), join(dataDir, 'deputy.db'));
    const world = new NoteWorld();
    const model = new ScriptedModel(say('Left it.'));
    const fixture = await openHost(model, {
      dataDir,
      tools: world.tools(),
      now: () => new Date('2026-11-28T09:05:00.000Z'),
    });
    open.push(fixture);
    const { host } = fixture;

    expect(storeOf(host).db.pragma('user_version', { simple: true })).toBeGreaterThanOrEqual(24);
    const { approvals } = await host.invoke('approval.list', { status: 'all' });
    expect(approvals).toHaveLength(2);
    for (const approval of approvals) {
      expect(approval.status).toBe('rejected');
      expect(approval).not.toHaveProperty('decidedBy');
    }
    expect(await waitForRun(host, BY_DEPUTY.threadId, BY_DEPUTY.runId)).toMatchObject({
      status: 'failed',
      errorCode: 'cancelled',
      errorMessage: ENDED_BY_DEPUTY.superseded.message,
    });
    expect(await waitForRun(host, BY_PERSON.threadId, BY_PERSON.runId)).toMatchObject({
      status: 'completed',
      resumed: true,
      summary: 'Left it.',
    });
    expect(model.requests).toHaveLength(1);
    expect(JSON.stringify(model.requests[0]?.messages.at(-1))).toContain(
      'The user rejected this action: Not in that channel.',
    );
    expect(world.notes).toHaveLength(0);
  });
});
