import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RunEvent } from '../../shared/contract';
import { startFakeGoogle, type FakeGoogle } from '../fakes/google/server';
import { connectGoogle, googleEnv } from '../support/connect';
import { openHost, type HostFixture } from '../support/host-fixture';
import { intentAnalysis } from '../support/intent-analysis';
import { calls, planOf, stepStatus } from '../support/plan-kit';
import { call, say, ScriptedModel } from '../support/scripted-model';

/** Monday 23 November 2026, 08:00 in Paris; "next week" is 30 November to 4 December. */
const NOW = new Date('2026-11-23T07:00:00.000Z');
const ALEX = 'alex@company.com';

let google: FakeGoogle;
let fixture: HostFixture;
afterEach(async () => {
  await fixture.close();
  await google.close();
});

const PLAN = {
  goal: 'Schedule a 30-minute meeting with Alex next week about the budget',
  steps: [
    { id: 'find-alex', title: 'Find Alex', tool: 'query_context', args: { type: 'person', name: 'Alex' } },
    {
      id: 'alex-free',
      title: "Get Alex's availability",
      tool: 'check_availability',
      args: { attendees: ['${find-alex}'], start: '2026-11-30', end: '2026-12-04', durationMinutes: 30 },
      dependsOn: ['find-alex'],
    },
    {
      id: 'me-free',
      title: 'Get my availability',
      tool: 'check_availability',
      args: { attendees: ['primary'], start: '2026-11-30', end: '2026-12-04', durationMinutes: 30 },
    },
    { id: 'overlap', title: 'Find the overlap', dependsOn: ['alex-free', 'me-free'] },
    { id: 'options', title: 'Present the options', ask: 'Which time suits you?', dependsOn: ['overlap'] },
    {
      id: 'create',
      title: 'Create the event',
      tool: 'calendar_event_create',
      args: { summary: 'Budget', attendees: ['${find-alex}'], start: '${options}', end: '${options}' },
      dependsOn: ['options'],
    },
  ],
};

const window = { start: '2026-11-30', end: '2026-12-04', durationMinutes: 30 };

describe("spec 004's appendix: “Schedule a 30-minute meeting with Alex next week to discuss the budget”", () => {
  it('finds Alex, reads both availabilities, presents the options, takes the answer, creates the event under approval', async () => {
    const model = new ScriptedModel(
      call('propose_plan', PLAN),
      call('query_context', {
        type: 'person',
        name: 'Alex',
        analysis: intentAnalysis({
          intent: 'schedule_meeting',
          entities: [{ type: 'person', value: 'Alex' }],
        }),
      }),
      (request) => {
        if (!JSON.stringify(request.messages).includes(ALEX))
          throw new Error('query_context did not find Alex');
        return calls(
          ['check_availability', { attendees: [ALEX], ...window }, 'avail-alex'],
          ['check_availability', { attendees: ['primary'], ...window }, 'avail-me'],
        );
      },
      call('update_plan', {
        steps: [
          { id: 'overlap', status: 'done', result: 'Mon 10:00, Tue 14:00, Wed 11:00' },
          { id: 'create', args: { attendees: [ALEX] } },
        ],
      }),
      call('request_clarification', {
        question:
          'I found 3 times when you and Alex are both free: Mon 10:00, Tue 14:00, Wed 11:00. Which one?',
      }),
    );
    google = await startFakeGoogle();
    fixture = await openHost(model, { env: googleEnv(google), now: () => NOW });
    const { host } = fixture;
    await host.invoke('settings.set', {
      timezone: 'Europe/Paris',
      userEmail: 'me@example.com',
      trustLevel: 'supervised',
    });
    google.gmail.addMessage({
      from: 'Me <me@example.com>',
      to: `Alex Johnson <${ALEX}>`,
      subject: 'Budget numbers',
      text: 'Here they are.',
      labelIds: ['SENT'],
    });
    google.calendar.setBusy(ALEX, [{ start: '2026-11-30T08:00:00Z', end: '2026-11-30T09:00:00Z' }]);
    await connectGoogle(host);
    expect((await host.context.refresh()).failed).toEqual([]);

    const events: RunEvent[] = [];
    const asked = await host.runToEnd(
      { prompt: 'Schedule a 30-minute meeting with Alex next week to discuss the budget' },
      (event) => events.push(event),
    );
    expect(asked.status).toBe('completed');
    expect(asked.decision).toBe('REQUEST_CLARIFICATION');
    const plan = await planOf(host, events);
    expect(asked.planId).toBe(plan.id);
    expect(plan.status).toBe('paused');
    expect(stepStatus(plan)).toEqual({
      'find-alex': 'done',
      'alex-free': 'done',
      'me-free': 'done',
      overlap: 'done',
      options: 'awaiting_user',
      create: 'pending',
    });
    expect(plan.steps.find((step) => step.id === 'create')).toMatchObject({
      needsApproval: true,
      fixed: ['attendees'],
    });
    expect(plan.steps.find((step) => step.id === 'options')?.question).toContain('Which one?');
    // Both availabilities were asked in one turn, and free/busy went to Google for Alex.
    expect(google.requests.filter((request) => request.path === '/calendar/v3/freeBusy')).toHaveLength(2);

    // The person answers; a new run takes the plan up and asks before creating the event.
    model.script((request) => {
      if (!JSON.stringify(request.messages).includes('[PLAN FINDINGS]'))
        throw new Error('the plan was not carried over');
      return call('calendar_event_create', {
        summary: 'Budget',
        start: '2026-12-01T14:00:00+01:00',
        end: '2026-12-01T14:30:00+01:00',
        attendees: [ALEX],
      });
    }, say('Booked: Budget with Alex, Tuesday 1 December at 14:00.'));
    await host.invoke('plan.continue', { planId: plan.id, answer: 'Tuesday at 14:00' });
    await vi.waitFor(async () =>
      expect(stepStatus((await host.invoke('plan.get', { planId: plan.id })).plan).create).toBe(
        'awaiting_approval',
      ),
    );
    expect(google.calendar.events()).toHaveLength(0);
    const approved = await host.invoke('plan.approve', { planId: plan.id });
    expect(approved.plan.approvedAt).not.toBeNull();
    await vi.waitFor(async () =>
      expect((await host.invoke('plan.get', { planId: plan.id })).plan.status).toBe('completed'),
    );
    const done = (await host.invoke('plan.get', { planId: plan.id })).plan;
    expect(done.steps.find((step) => step.id === 'options')?.answer).toBe('Tuesday at 14:00');
    const created = google.calendar.events().filter((event) => event.summary === 'Budget');
    expect(created).toHaveLength(1);
    expect(created[0]?.attendees?.map((attendee) => attendee.email)).toEqual([ALEX]);
  });
});
