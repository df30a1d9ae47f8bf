import { describe, expect, it } from 'vitest';
import { ActiveRuns } from '../../../electron/host/active-runs';
import type { RunResponse } from '../../../shared/contract';

const answer = (runId: string, summary: string): RunResponse => ({
  ok: true,
  runId,
  threadId: 't',
  actionId: runId,
  model: 'm',
  status: 'completed',
  summary,
  mode: 'assistant_text',
});

function activeRuns(capacity: number) {
  const queued: string[] = [];
  const runs = new ActiveRuns({
    capacity: () => capacity,
    onQueued: (run, position) => queued.push(`${run.id}:${position}`),
    onLeftQueue: (runId) => answer(runId, 'left the queue'),
    onError: (runId) => answer(runId, 'failed'),
  });
  return { runs, queued };
}

describe('ActiveRuns', () => {
  it('runs a continuation of a working run in its own slot, ahead of runs waiting in line', async () => {
    const { runs, queued } = activeRuns(1);
    const order: string[] = [];
    let finishFirst = (): void => {};
    const first = runs.track({ id: 'a', threadId: 't' }, async () => {
      order.push('a: first piece');
      await new Promise<void>((resolve) => (finishFirst = resolve));
      return answer('a', 'first');
    });
    const other = runs.track({ id: 'b', threadId: 't2' }, async () => {
      order.push('b');
      return answer('b', 'other');
    });
    const continuation = runs.track({ id: 'a', threadId: 't' }, async () => {
      order.push('a: continuation');
      return answer('a', 'continued');
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(queued).toEqual(['b:1']);
    finishFirst();
    expect((await Promise.all([first, continuation, other])).map((result) => result.summary)).toEqual([
      'first',
      'continued',
      'other',
    ]);
    expect(order).toEqual(['a: first piece', 'a: continuation', 'b']);
  });

  it('ends a run cancelled in line without running its work, and stops a thread’s runs on request', async () => {
    const { runs } = activeRuns(1);
    let started = false;
    const busy = runs.track({ id: 'a', threadId: 't' }, (signal) => {
      return new Promise<RunResponse>((resolve) =>
        signal.addEventListener('abort', () => resolve(answer('a', 'stopped'))),
      );
    });
    const waiting = runs.track({ id: 'b', threadId: 't2' }, async () => {
      started = true;
      return answer('b', 'ran');
    });
    expect(runs.cancel('b')).toBe(true);
    expect((await waiting).summary).toBe('left the queue');
    expect(started).toBe(false);
    expect(runs.hasIn('t')).toBe(true);
    expect(await runs.stopIn('t')).toBe(1);
    expect((await busy).summary).toBe('stopped');
    expect(runs.has('a')).toBe(false);
    expect(runs.cancel('a')).toBe(false);
  });
});
