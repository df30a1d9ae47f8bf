import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CommandInput, Memory, MemoryListOutput } from '../../../shared/contract';
import { ClientError } from '../../../renderer/src/api/client-error';
import { createMemoryStore } from '../../../renderer/src/features/memory/memory-store';
import { describeOrigin } from '../../../renderer/src/features/memory/memory-origin';
import { fakeClient } from './fixtures';

const memory = (id: string, text = `memory ${id}`): Memory => ({
  id,
  text,
  origin: 'person',
  source: null,
  confirmedAt: '2026-11-21T10:00:00.000Z',
  createdAt: '2026-11-21T10:00:00.000Z',
  updatedAt: '2026-11-21T10:00:00.000Z',
});

/** A host with five memories, newest first, paged two at a time; a query keeps those containing it. */
function memoryHost(all = ['m5', 'm4', 'm3', 'm2', 'm1'].map((id) => memory(id))) {
  const list = async (input: CommandInput<'memory.list'>): Promise<MemoryListOutput> => {
    const limit = input?.limit ?? 50;
    if (input?.query) {
      const query = input.query;
      return { memories: all.filter((item) => item.text.includes(query)), nextCursor: null };
    }
    const cursor = input?.cursor;
    const start = cursor ? all.findIndex((item) => item.id === cursor) + 1 : 0;
    const page = all.slice(start, start + limit);
    const last = page.at(-1);
    return { memories: page, nextCursor: start + limit < all.length && last ? last.id : null };
  };
  return list;
}

const ids = (memories: Memory[]) => memories.map((item) => item.id);

afterEach(() => {
  vi.useRealTimers();
});

describe('memory store', () => {
  it('lists newest first and loads more with the cursor until there is no more', async () => {
    const fake = fakeClient({ 'memory.list': memoryHost() });
    const store = createMemoryStore(fake.client, { pageSize: 2 });
    await store.getState().reload();
    expect(ids(store.getState().memories)).toEqual(['m5', 'm4']);
    expect(store.getState().nextCursor).toBe('m4');

    await store.getState().loadMore();
    await store.getState().loadMore();
    expect(ids(store.getState().memories)).toEqual(['m5', 'm4', 'm3', 'm2', 'm1']);
    expect(store.getState().nextCursor).toBeNull();
    expect(fake.calls.map((call) => call.input)).toEqual([
      { limit: 2 },
      { limit: 2, cursor: 'm4' },
      { limit: 2, cursor: 'm2' },
    ]);
    await store.getState().loadMore();
    expect(fake.calls).toHaveLength(3);
  });

  it('searches once typing pauses, with the trimmed query, and lists everything again when cleared', async () => {
    vi.useFakeTimers();
    const fake = fakeClient({
      'memory.list': memoryHost([
        memory('a', 'likes tea'),
        memory('b', 'likes coffee'),
        memory('c', 'tea at 4'),
      ]),
    });
    const store = createMemoryStore(fake.client, { debounceMs: 200 });
    await store.getState().reload();

    store.getState().setQueryText('te');
    store.getState().setQueryText('tea ');
    expect(store.getState().queryText).toBe('tea ');
    await vi.advanceTimersByTimeAsync(199);
    expect(fake.calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await vi.waitFor(() => expect(store.getState().shownQuery).toBe('tea'));
    expect(fake.calls.at(-1)?.input).toEqual({ limit: 30, query: 'tea' });
    expect(ids(store.getState().memories)).toEqual(['a', 'c']);

    store.getState().setQueryText('');
    await vi.advanceTimersByTimeAsync(200);
    await vi.waitFor(() => expect(store.getState().shownQuery).toBe(''));
    expect(ids(store.getState().memories)).toEqual(['a', 'b', 'c']);
  });

  it('lets only the newest search change the list when an older one answers late', async () => {
    const answers: ((page: MemoryListOutput) => void)[] = [];
    const fake = fakeClient({ 'memory.list': () => new Promise((resolve) => answers.push(resolve)) });
    const store = createMemoryStore(fake.client, { debounceMs: 0 });
    store.getState().setQueryText('old');
    await vi.waitFor(() => expect(answers).toHaveLength(1));
    store.getState().setQueryText('new');
    await vi.waitFor(() => expect(answers).toHaveLength(2));

    answers[1]?.({ memories: [memory('n', 'new')], nextCursor: null });
    await vi.waitFor(() => expect(store.getState().shownQuery).toBe('new'));
    answers[0]?.({ memories: [memory('o', 'old')], nextCursor: null });
    await Promise.resolve();
    expect(store.getState()).toMatchObject({ shownQuery: 'new', isLoading: false });
    expect(ids(store.getState().memories)).toEqual(['n']);
  });

  it('shows the empty state only once the host has answered', async () => {
    const fake = fakeClient({ 'memory.list': async () => ({ memories: [], nextCursor: null }) });
    const store = createMemoryStore(fake.client);
    expect(store.getState().hasLoaded).toBe(false);
    await store.getState().reload();
    expect(store.getState()).toMatchObject({ hasLoaded: true, memories: [], loadError: null });
  });

  it('saves an edit in place, and keeps a refused edit with the reason beside it', async () => {
    const fake = fakeClient({
      'memory.list': memoryHost(),
      'memory.update': async ({ id, text }) =>
        id === 'm4'
          ? { memory: { ...memory(id, text), updatedAt: '2026-11-21T12:00:00.000Z' } }
          : Promise.reject(new ClientError('not_found', `There is no memory with the id "${id}".`)),
    });
    const store = createMemoryStore(fake.client, { pageSize: 2 });
    await store.getState().reload();

    const saving = store.getState().update('m4', 'Prefers tea');
    expect(store.getState().activity.m4?.inFlight).toBe('save');
    expect(await store.getState().update('m4', 'twice')).toBe(false);
    expect(await saving).toBe(true);
    expect(store.getState().memories[1]).toMatchObject({ id: 'm4', text: 'Prefers tea' });
    expect(store.getState().activity.m4).toEqual({ inFlight: null, error: null });

    expect(await store.getState().update('m5', 'Nope')).toBe(false);
    expect(store.getState().activity.m5?.error).toBe('There is no memory with the id "m5".');
    expect(store.getState().memories[0]?.text).toBe('memory m5');
    store.getState().clearError('m5');
    expect(store.getState().activity.m5?.error).toBeNull();
  });

  it('deletes, treats one already gone as deleted, and shows other failures in place', async () => {
    const fake = fakeClient({
      'memory.list': memoryHost(),
      'memory.delete': async ({ id }) => {
        if (id === 'm4') throw new ClientError('not_found', 'There is no memory with the id "m4".');
        if (id === 'm3') throw new ClientError('disconnected', 'Lost the connection to Deputy.');
        return { deleted: id };
      },
    });
    const store = createMemoryStore(fake.client, { pageSize: 3 });
    await store.getState().reload();
    expect(await store.getState().remove('m5')).toBe(true);
    expect(await store.getState().remove('m4')).toBe(true);
    expect(await store.getState().remove('m3')).toBe(false);
    expect(ids(store.getState().memories)).toEqual(['m3']);
    expect(store.getState().activity).toEqual({
      m3: { inFlight: null, error: 'Lost the connection to Deputy.' },
    });
  });

  it('shows why the list could not be read, and a pending search does not run after dispose', async () => {
    vi.useFakeTimers();
    const fake = fakeClient({
      'memory.list': () => Promise.reject(new ClientError('disconnected', 'Lost the connection.')),
    });
    const store = createMemoryStore(fake.client);
    await store.getState().reload();
    expect(store.getState()).toMatchObject({ loadError: 'Lost the connection.', isLoading: false });

    store.getState().setQueryText('tea');
    store.getState().dispose();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(fake.calls).toHaveLength(1);
  });
});

describe('where a memory came from', () => {
  it('says whose words it holds and whether the person confirmed it', () => {
    expect(describeOrigin(memory('m1'))).toBe('From what you told Deputy · confirmed');
    expect(
      describeOrigin({
        ...memory('m2'),
        origin: 'source',
        source: 'a mail from carl@x.io (“Hello”)',
        confirmedAt: null,
      }),
    ).toBe('Drawn from a mail from carl@x.io (“Hello”) · not confirmed: Edit, then Save, to confirm it');
    expect(describeOrigin({ ...memory('m3'), origin: 'legacy', confirmedAt: null })).toBe(
      'Saved before Deputy recorded where memories came from · not confirmed: Edit, then Save, to confirm it',
    );
  });
});
