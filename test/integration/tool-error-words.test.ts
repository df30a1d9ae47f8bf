import { afterEach, describe, expect, it } from 'vitest';
import type { RunEvent } from '../../shared/contract';
import { openHost, type HostFixture } from '../support/host-fixture';
import { call, say, ScriptedModel } from '../support/scripted-model';

let fixture: HostFixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

describe("a tool's error, told to the person and to the model", () => {
  it("gives the person the error and the model its next step too (not the model's step to the person)", async () => {
    const model = new ScriptedModel(
      call('mark_task_complete', { id: 'task-missing' }),
      say('It is not there.'),
    );
    fixture = await openHost(model);
    await fixture.host.invoke('settings.set', { trustLevel: 'autonomous' });
    const events: RunEvent[] = [];
    await fixture.host.runToEnd({ prompt: 'Mark the task task-missing as done' }, (event) =>
      events.push(event),
    );
    // A task Deputy cannot find is asked about first; approved, the call runs and fails.
    const asked = events.find((event) => event.type === 'approval_needed');
    if (asked?.type !== 'approval_needed') throw new Error('expected the call to wait for approval');
    await fixture.host.invoke('approval.decide', { approvalId: asked.approval.id, decision: 'approve' });
    await expect.poll(() => model.requests.length).toBe(2);

    const answer = JSON.stringify(model.requests[1]?.messages.at(-1));
    expect(answer).toContain('No task has the id “task-missing”. Call list_tasks to see the current ids.');
    // The ledger keeps the person's words, as the card shows them live and after a reload.
    const thread = await fixture.host.invoke('thread.get', { threadId: asked.threadId });
    expect(thread.actions.map((action) => action.error)).toEqual(['No task has the id “task-missing”.']);
  });
});
