import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Tool } from '../../electron/tools/tool';
import { openHost, type HostFixture } from '../support/host-fixture';
import { planTools, calls } from '../support/plan-kit';
import { say, ScriptedModel } from '../support/scripted-model';

let fixture: HostFixture;
afterEach(async () => fixture.close());

describe('pause vs decisions already queued', () => {
  it('a call approved before Pause but still queued behind its run is not done after Pause, and not later either', async () => {
    const sent: { to: string[]; body: string }[] = [];
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => (release = r));
    let setOff: () => void = () => {};
    const isUnderWay = new Promise<void>((r) => (setOff = r));
    const slow: Tool<{ to: string[]; body: string }> = {
      name: 'slow_send',
      description: 'Send slowly.',
      input: z.object({ to: z.array(z.string()), body: z.string() }).strict(),
      output: z.object({ sent: z.boolean() }),
      category: 'external',
      risk: 'high',
      hasSideEffects: true,
      actionKind: 'email.send',
      isExternal: true,
      recipients: (input) => input.to,
      preview: (input) => ({ title: `Send to ${input.to.join(', ')}`, fields: [] }),
      execute: async (input) => {
        setOff();
        await gate;
        sent.push(input);
        return { sent: true };
      },
    };
    const model = new ScriptedModel(
      calls(
        ['slow_send', { to: ['a@example.com'], body: 'A' }, 'c1'],
        ['send_message', { to: ['b@example.com'], body: 'B' }, 'c2'],
      ),
      say('Sent.'),
    );
    fixture = await openHost(model, { tools: [...planTools(sent, { fetch: 0 }), slow] });
    const { host } = fixture;
    await host.invoke('settings.set', { trustLevel: 'supervised', executionPolicy: 'batch' });
    const first = await host.runToEnd({ prompt: 'send A to a@example.com and B to b@example.com' });
    expect(first.status).toBe('awaiting_confirmation');
    const approvals = (await host.invoke('approval.list', { status: 'pending' })).approvals;
    expect(approvals).toHaveLength(2);
    const a = approvals.find((x) => x.tool === 'slow_send');
    const b = approvals.find((x) => x.tool === 'send_message');
    if (!a || !b) throw new Error('both calls should wait for approval');
    const da = host.invoke('approval.decide', { approvalId: a.id, decision: 'approve' });
    const db = host.invoke('approval.decide', { approvalId: b.id, decision: 'approve' });
    await isUnderWay;
    // The person presses "Pause all side effects" while A is still under way.
    await host.invoke('sideEffects.set', { isPaused: true });
    release();
    await Promise.allSettled([da, db]);
    await new Promise((r) => setTimeout(r, 100));
    // A was already running when the pause came; B had not started, so it is not done, and the model is told why.
    expect(sent.map((m) => m.body)).toEqual(['A']);
    const told = JSON.stringify(model.requests.at(-1)?.messages.at(-1));
    expect(told).toContain('side_effects_paused');
    // Refused, not held: Resume does not send it behind the person's back.
    await host.invoke('sideEffects.set', { isPaused: false });
    await new Promise((r) => setTimeout(r, 100));
    expect(sent.map((m) => m.body)).toEqual(['A']);
  });
});
