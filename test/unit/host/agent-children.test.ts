import { describe, expect, it } from 'vitest';
import { waitForRunEnd, type ChildStop, type RunWatch } from '../../../electron/host/agent-children';

/** A watch on a child that never ends by itself; it records why it was stopped. */
function watchingChild(): { watch: RunWatch; stops: ChildStop[] } {
  const stops: ChildStop[] = [];
  return {
    stops,
    watch: {
      subscribe: () => () => {},
      cancel: (_runId, why) => {
        stops.push(why);
        return true;
      },
    },
  };
}

describe('a child run stopped from above', () => {
  it('is stopped with its parent when the parent run is stopped', async () => {
    const { watch, stops } = watchingChild();
    const parent = new AbortController();
    const ending = waitForRunEnd(watch, 'child-1', parent.signal);
    parent.abort();
    await expect(ending).rejects.toMatchObject({ code: 'cancelled' });
    expect(stops).toEqual(['parent_stopped']);
  });

  it('is stopped as out of time when the call that started it passes its limit', async () => {
    const { watch, stops } = watchingChild();
    const call = new AbortController();
    const ending = waitForRunEnd(watch, 'child-2', call.signal);
    call.abort(new DOMException('delegate ran out of time', 'TimeoutError'));
    await expect(ending).rejects.toMatchObject({ code: 'cancelled' });
    expect(stops).toEqual(['out_of_time']);
  });
});
