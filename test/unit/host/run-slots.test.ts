import { describe, expect, it } from 'vitest';
import { LeftQueue, RunSlots } from '../../../electron/host/run-slots';

const settled = async (promise: Promise<unknown>): Promise<'granted' | 'left' | 'waiting'> => {
  let state: 'granted' | 'left' | 'waiting' = 'waiting';
  promise.then(
    () => (state = 'granted'),
    (error: unknown) => (state = error instanceof LeftQueue ? 'left' : 'waiting'),
  );
  await new Promise((resolve) => setImmediate(resolve));
  return state;
};

describe('RunSlots', () => {
  it('lets in up to the cap and the rest in order as slots free', async () => {
    const slots = new RunSlots(() => 2);
    const signal = new AbortController().signal;
    const grants = ['a', 'b', 'c', 'd'].map((id) => slots.acquire(id, signal));
    const [, , third = Promise.reject(new Error('missing')), fourth = third] = grants;
    expect(await Promise.all(grants.map(settled))).toEqual(['granted', 'granted', 'waiting', 'waiting']);
    expect(slots.snapshot()).toEqual({ working: 2, waiting: ['c', 'd'] });

    slots.release('b');
    expect(await settled(third)).toBe('granted');
    expect(await settled(fourth)).toBe('waiting');
    slots.release('a');
    expect(await settled(fourth)).toBe('granted');
    expect(slots.snapshot()).toEqual({ working: 2, waiting: [] });
  });

  it('tells each waiting run its place whenever the line moves', () => {
    const slots = new RunSlots(() => 1);
    const signal = new AbortController().signal;
    const heard: string[] = [];
    for (const id of ['a', 'b', 'c'])
      void slots.acquire(id, signal, (position) => heard.push(`${id}:${position}`));
    expect(heard).toEqual(['b:1', 'c:2']);
    slots.release('a');
    expect(heard).toEqual(['b:1', 'c:2', 'c:1']);
  });

  it('takes a cancelled run out of the line without using a slot', async () => {
    const slots = new RunSlots(() => 1);
    const first = slots.acquire('a', new AbortController().signal);
    const cancel = new AbortController();
    const second = slots.acquire('b', cancel.signal);
    const third = slots.acquire('c', new AbortController().signal);
    cancel.abort();
    expect(await settled(second)).toBe('left');
    expect(slots.snapshot().waiting).toEqual(['c']);
    slots.release('b');
    expect(slots.snapshot()).toEqual({ working: 1, waiting: ['c'] });
    expect(await settled(first)).toBe('granted');
    slots.release('a');
    expect(await settled(third)).toBe('granted');
  });

  it('gives more work of a run that holds a slot the same slot, so it never waits behind itself', async () => {
    const slots = new RunSlots(() => 1);
    const signal = new AbortController().signal;
    await slots.acquire('a', signal);
    const waiting = slots.acquire('b', signal);
    const continuation = slots.acquire('a', signal);
    expect(await settled(continuation)).toBe('granted');
    slots.release('a');
    // The first piece ended; the continuation still holds the run's slot.
    expect(await settled(waiting)).toBe('waiting');
    slots.release('a');
    expect(await settled(waiting)).toBe('granted');
  });

  it('lets more in when the cap is raised', async () => {
    let cap = 1;
    const slots = new RunSlots(() => cap);
    const signal = new AbortController().signal;
    void slots.acquire('a', signal);
    const second = slots.acquire('b', signal);
    expect(await settled(second)).toBe('waiting');
    cap = 2;
    slots.admitWaiting();
    expect(await settled(second)).toBe('granted');
  });

  it('refuses at once a run whose signal was already aborted', async () => {
    const slots = new RunSlots(() => 4);
    const cancel = new AbortController();
    cancel.abort();
    expect(await settled(slots.acquire('a', cancel.signal))).toBe('left');
    slots.release('a');
    expect(slots.snapshot()).toEqual({ working: 0, waiting: [] });
  });
});
