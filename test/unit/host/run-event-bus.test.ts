import { describe, expect, it } from 'vitest';
import { RunEventBus } from '../../../electron/host/run-event-bus';
import type { RunEvent } from '../../../shared/contract';

const notice = (runId: string): RunEvent => ({
  type: 'notice',
  runId,
  threadId: 't1',
  actionId: 'a1',
  tool: 'add_task',
  message: 'It was undone.',
  isUndone: true,
});
const ending = (runId: string): RunEvent => ({ type: 'error', runId, threadId: 't1', error: 'It stopped.' });

describe('the run event bus', () => {
  it('tells subscribers of a word about a run it let go, and leaves the run’s replay to its journal', () => {
    const journal = new Map<string, RunEvent[]>([['old', [ending('old'), notice('old')]]]);
    const bus = new RunEventBus(
      (runId) => journal.get(runId) ?? [],
      (runId) => journal.has(runId),
    );
    const heard: RunEvent[] = [];
    bus.subscribe({ threadId: 't1' }, (event) => heard.push(event));
    // An undo's notice long after the run ended (its events no longer held): heard live…
    bus.publish(notice('old'));
    expect(heard).toEqual([notice('old')]);
    // …and a late subscriber to the run replays it whole from the journal, not the notice alone.
    const replayed: RunEvent[] = [];
    bus.subscribe({ runId: 'old' }, (event) => replayed.push(event));
    expect(replayed).toEqual([ending('old'), notice('old')]);
  });

  it('holds the events of a run that has not ended, even when the first one it hears is not its start', () => {
    const bus = new RunEventBus(
      () => [],
      () => false,
    );
    bus.publish(notice('resumed'));
    const replayed: RunEvent[] = [];
    bus.subscribe({ runId: 'resumed' }, (event) => replayed.push(event));
    expect(replayed).toEqual([notice('resumed')]);
  });
});
