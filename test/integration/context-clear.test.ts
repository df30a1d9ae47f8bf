import { afterEach, describe, expect, it, vi } from 'vitest';
import { IndexWorker } from '../../electron/context/index-worker-client';
import { WORKER_MIN_CONTACTS } from '../../electron/context/context-refresh';
import { startFakeSlack, type FakeSlack } from '../fakes/slack/server';
import { openHost, type HostFixture } from '../support/host-fixture';
import { ScriptedModel } from '../support/scripted-model';

const NOW = new Date('2026-11-23T07:00:00.000Z');
let slack: FakeSlack;
let fixture: HostFixture;

afterEach(async () => {
  vi.restoreAllMocks();
  await fixture.close();
  await slack.close();
});

describe('clearing the context index', () => {
  it('removes a merge chunk the index worker was handed just before, though it is written after the clear', async () => {
    slack = await startFakeSlack();
    for (let n = 0; n < WORKER_MIN_CONTACTS; n += 1)
      slack.state.users.push({
        id: `U9${String(n).padStart(6, '0')}`,
        name: `member${n}`,
        realName: `Member ${n}`,
        displayName: `member${n}`,
      });
    fixture = await openHost(new ScriptedModel(), { env: slack.env, now: () => NOW });
    const token = slack.state.issueToken({});
    await fixture.host.invoke('connections.connect', { name: 'slack', token });
    const context = fixture.host.context;
    // The person clears the index the moment the refresh has handed its first chunk of members to the worker.
    const merge = IndexWorker.prototype.merge;
    const handedOver = vi.spyOn(IndexWorker.prototype, 'merge').mockImplementation(function (
      this: IndexWorker,
      ...args
    ) {
      const merged = merge.apply(this, args);
      context.clear();
      return merged;
    });

    await context.refresh();
    expect(handedOver).toHaveBeenCalledOnce();

    // The chunk lands after the clear; the worker's own clear, queued behind it, removes it.
    await vi.waitFor(() => expect(context.stats().contacts).toBe(0), { timeout: 3_000 });
    context.contacts.recount();
    expect(context.stats().contacts).toBe(0);
    expect(fixture.errors).toEqual([]);
  });
});
