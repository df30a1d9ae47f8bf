import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ModelError, type ModelRequest, type ModelStreamEvent } from '../../electron/llm/model-client';
import type { Tool } from '../../electron/tools/tool';
import type { RunEvent } from '../../shared/contract';
import { endingOf, until } from '../support/durable-kit';
import { openHost, type HostFixture } from '../support/host-fixture';
import { MAIL_PLAN, planOf, planTools } from '../support/plan-kit';
import { call, ScriptedModel, type ScriptedTurn } from '../support/scripted-model';

/*
 * A run whose plan the person cancels ends with the words the plan's tree agrees with ("Cancelled: you cancelled
 * the plan."), whether the run was paused for an approval, in the middle of a model turn, or running a call.
 */

const CANCELLED = 'Cancelled: you cancelled the plan.';

let fixture: HostFixture;
afterEach(async () => fixture.close());

/** Plays the script, then holds every later request until the run is stopped, as Gemini's client gives up. */
class HangsWhenDone extends ScriptedModel {
  isHung = false;
  override async *stream(request: ModelRequest): AsyncIterable<ModelStreamEvent> {
    if (this.remaining === 0) {
      this.isHung = true;
      await new Promise((_resolve, reject) =>
        request.signal.addEventListener('abort', () => reject(new ModelError('cancelled', 'Stopped.'))),
      );
    }
    yield* super.stream(request);
  }
}

/** A look-up that answers only when its call is stopped. */
function hangingTool(started: { count: number }): Tool<{ q: string }> {
  return {
    name: 'slow_lookup',
    description: 'Look something up, slowly.',
    input: z.object({ q: z.string() }).strict(),
    output: z.object({ answer: z.string() }),
    category: 'query',
    risk: 'low',
    hasSideEffects: false,
    execute: (_input, context) => {
      started.count += 1;
      return new Promise((_resolve, reject) =>
        context.signal.addEventListener('abort', () => reject(new Error('stopped'))),
      );
    },
  };
}

async function start(...turns: ScriptedTurn[]) {
  const started = { count: 0 };
  const model = new HangsWhenDone(...turns);
  fixture = await openHost(model, { tools: [...planTools([], { fetch: 0 }), hangingTool(started)] });
  await fixture.host.invoke('settings.set', { trustLevel: 'supervised', executionPolicy: 'batch' });
  const events: RunEvent[] = [];
  fixture.host.subscribe('run.events', {}, (event) => events.push(event));
  const { runId, threadId } = fixture.host.startRun({ prompt: 'Look up the budget and mail Alice' });
  return { host: fixture.host, model, started, events, runId, threadId };
}

const errorEvents = (events: readonly RunEvent[], runId: string) =>
  events.flatMap((event) => (event.type === 'error' && event.runId === runId ? [event.error] : []));

type Started = Awaited<ReturnType<typeof start>>;

/** Cancels the run's plan and says how the run ended; its events said it once, in the same words. */
async function cancelPlanOf({ host, events, runId, threadId }: Started) {
  const plan = await planOf(host, events);
  expect((await host.invoke('plan.cancel', { planId: plan.id })).plan.status).toBe('cancelled');
  const { run } = await endingOf(host, threadId, runId);
  expect(errorEvents(events, runId)).toEqual([run.errorMessage]);
  // The conversation list tells it from a run the person stopped, as the chat does.
  expect(await listedOf(host, threadId)).toMatchObject({
    lastRunErrorCode: 'cancelled',
    isLastRunPlanCancelled: true,
  });
  return run;
}

/** The conversation as the list shows it. */
async function listedOf(host: Started['host'], threadId: string) {
  const { threads } = await host.invoke('threads.list', {});
  return threads.find((thread) => thread.id === threadId);
}

const ENDED_CANCELLED = {
  status: 'failed',
  errorCode: 'cancelled',
  errorMessage: CANCELLED,
  summary: CANCELLED,
};

/** The plan proposed and its look-up done: the run's next model turn hangs. */
const LOOKED_UP = [call('propose_plan', MAIL_PLAN), call('lookup', { q: 'budget' }, 'c1')];

describe('a run whose plan the person cancels', () => {
  it('ends "Cancelled: you cancelled the plan." when it was paused for the plan’s approval', async () => {
    const run = await start(
      ...LOOKED_UP,
      call('send_message', { to: ['alice@example.com'], body: 'x' }, 'c2'),
    );
    await until(() =>
      run.events.some((event) => event.type === 'status' && event.status === 'awaiting_confirmation'),
    );
    expect(await cancelPlanOf(run)).toEqual(ENDED_CANCELLED);
  });

  it('ends with the same words when it is cancelled in the middle of a model turn', async () => {
    const run = await start(...LOOKED_UP);
    await until(() => run.model.isHung);
    expect(await cancelPlanOf(run)).toEqual(ENDED_CANCELLED);
  });

  it('ends with the same words when it is cancelled while a call of the plan runs', async () => {
    const plan = {
      goal: 'Look it up slowly',
      steps: [
        { id: 'find', title: 'Look it up', tool: 'slow_lookup', args: { q: 'budget' } },
        { id: 'more', title: 'Look again', tool: 'lookup', args: { q: 'more' }, dependsOn: ['find'] },
      ],
    };
    const run = await start(call('propose_plan', plan), call('slow_lookup', { q: 'budget' }, 's1'));
    await until(() => run.started.count === 1);
    expect(await cancelPlanOf(run)).toEqual(ENDED_CANCELLED);
  });

  it('is only stopped when the person stops the run itself: its plan is cancelled with it, its words stay "Stopped."', async () => {
    const { host, model, events, runId, threadId } = await start(...LOOKED_UP);
    await until(() => model.isHung);
    await host.invoke('run.cancel', { runId });
    const ending = await endingOf(host, threadId, runId);
    expect(ending.run).toMatchObject({ status: 'failed', errorCode: 'cancelled', errorMessage: 'Stopped.' });
    expect((await planOf(host, events)).status).toBe('cancelled');
    const listed = await listedOf(host, threadId);
    expect(listed?.lastRunErrorCode).toBe('cancelled');
    expect(listed?.isLastRunPlanCancelled).toBeUndefined();
  });
});
