import { afterEach, describe, expect, it } from 'vitest';
import { GatedModel, until } from '../support/gated-model';
import { collect, openHost, type HostFixture } from '../support/host-fixture';

const fixtures: HostFixture[] = [];
afterEach(async () => {
  for (const fixture of fixtures.splice(0)) await fixture.close();
});

describe('the conversation list', () => {
  it('says why a failed last run ended, so a run the person stopped can read as stopped', async () => {
    const model = new GatedModel();
    const fixture = await openHost(model);
    fixtures.push(fixture);
    const { host } = fixture;
    const events = collect(host);
    const ended = (runId: string) => events.some((event) => event.type === 'result' && event.runId === runId);

    const stopped = await host.invoke('run.start', { prompt: 'Take your time' });
    await until(() => model.held.length === 1);
    await host.invoke('run.cancel', { runId: stopped.runId });
    await until(() => ended(stopped.runId));
    const answered = await host.invoke('run.start', { prompt: 'Answer me' });
    await until(() => model.held.length === 1);
    model.answer('Answer me');
    await until(() => ended(answered.runId));

    const { threads } = await host.invoke('threads.list', {});
    const byId = new Map(threads.map((thread) => [thread.id, thread]));
    expect(byId.get(stopped.threadId)).toMatchObject({
      lastRunStatus: 'failed',
      lastRunErrorCode: 'cancelled',
    });
    expect(byId.get(answered.threadId)?.lastRunStatus).toBe('completed');
    expect(byId.get(answered.threadId)?.lastRunErrorCode).toBeUndefined();
    // A renamed conversation comes back the way the list shows it.
    const renamed = await host.invoke('thread.rename', { threadId: stopped.threadId, title: 'Slow one' });
    expect(renamed).toMatchObject({ title: 'Slow one', lastRunErrorCode: 'cancelled' });
  });
});
