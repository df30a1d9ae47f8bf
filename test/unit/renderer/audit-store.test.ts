import { describe, expect, it } from 'vitest';
import type { AuditEntry, AuditListInput, ThreadSummary } from '../../../shared/contract';
import { createAuditStore } from '../../../renderer/src/features/audit/audit-store';
import { fakeClient, undoUnderWay } from './fixtures';

const summary = (id: string, title: string): ThreadSummary => ({
  id,
  title,
  createdAt: '2026-11-01T09:00:00.000Z',
  updatedAt: '2026-11-01T09:00:00.000Z',
  lastRunStatus: 'completed',
});

describe('the audit store', () => {
  const recent = Array.from({ length: 50 }, (_, index) => summary(`t${index}`, `Recent ${index}`));
  const handlers = {
    'audit.list': async () => ({ entries: [], nextCursor: null }),
    'threads.list': async () => ({ threads: recent, nextBefore: 't49' }),
    'thread.get': async ({ threadId }: { threadId: string }) => {
      if (threadId !== 'old') throw new Error(`no conversation ${threadId}`);
      return { thread: summary('old', 'Passport renewal'), messages: [], actions: [], runs: [] };
    },
  };

  it('names a scoped conversation by its title, a recent one from the list', async () => {
    const store = createAuditStore(fakeClient(handlers).client);
    await store.getState().setFilter('threadId', 't7');
    await expect.poll(() => store.getState().scopeTitle).toBe('Recent 7');
  });

  it('names an older conversation, past the list’s recent page, by its own title', async () => {
    const store = createAuditStore(fakeClient(handlers).client);
    await store.getState().setFilter('threadId', 'old');
    await expect.poll(() => store.getState().scopeTitle).toBe('Passport renewal');
  });

  it('looks the title up again when asked, and a lookup that answers late does not bring back the old title', async () => {
    let title = 'Recent 7';
    const answers: (() => void)[] = [];
    const store = createAuditStore(
      fakeClient({
        ...handlers,
        // Each lookup reads the title when it is asked, and answers when the test lets it.
        'threads.list': async () => {
          const threads = recent.map((thread) => (thread.id === 't7' ? { ...thread, title } : thread));
          await new Promise<void>((resolve) => answers.push(resolve));
          return { threads, nextBefore: 't49' };
        },
      }).client,
    );
    void store.getState().setFilter('threadId', 't7');
    await expect.poll(() => answers.length).toBe(1);
    title = 'Recent 7, renamed';
    const refreshed = store.getState().refreshScopeTitle();
    await expect.poll(() => answers.length).toBe(2);
    answers[1]?.();
    await refreshed;
    expect(store.getState().scopeTitle).toBe('Recent 7, renamed');
    answers[0]?.();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(store.getState().scopeTitle).toBe('Recent 7, renamed');
  });

  it('keeps no title for a conversation that is gone (the chip shows the id’s tail)', async () => {
    const store = createAuditStore(fakeClient(handlers).client);
    await store.getState().setFilter('threadId', 'gone');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(store.getState().scopeTitle).toBeNull();
  });

  it('closes the open entry when a filter leaves it out of the results, and keeps it while it may be in them', async () => {
    const entry = (id: string, seq: number) => ({ id, seq }) as AuditEntry;
    const [newer, older] = [entry('newer', 3), entry('older', 2)];
    // What each filter finds: the search finds nothing, a status finds the older, a risk finds the newer on a first
    // page with more to come, a tool finds only the newer.
    const found = (input: AuditListInput) => {
      if (input.q) return { entries: [], nextCursor: null };
      if (input.status) return { entries: [older], nextCursor: null };
      if (input.risk) return { entries: [newer], nextCursor: '3' };
      if (input.tool) return { entries: [newer], nextCursor: null };
      return { entries: [newer, older], nextCursor: null };
    };
    const store = createAuditStore(
      fakeClient({
        ...handlers,
        'audit.list': async (input) => found(input ?? {}),
        'audit.get': async ({ id }) => ({ entry: id === 'newer' ? newer : older, related: [] }),
      }).client,
    );
    const state = () => store.getState();
    await state().reload();
    await state().select('older');

    await state().setFilter('status', 'completed');
    expect(state().detail?.entry.id).toBe('older');
    await state().setFilter('status', '');
    await state().setFilter('risk', 'high');
    expect(state().detail?.entry.id).toBe('older');
    await state().setFilter('risk', '');

    await state().setFilter('q', 'nothing like this');
    expect([state().selectedId, state().detail]).toEqual([null, null]);
    await state().setFilter('q', '');
    await state().select('older');
    await state().setFilter('tool', 'add_task');
    expect([state().selectedId, state().detail]).toEqual([null, null]);
  });

  it('Undo on a post whose undo another window is making: says it is under way, and asks nothing', async () => {
    const post = {
      id: 'e1',
      kind: 'tool_call',
      actionType: 'slack_send',
      status: 'completed',
      undo: { isReversible: true, whyNot: null, undoOf: null, undoneBy: null },
    } as unknown as AuditEntry;
    const running = undoUnderWay(post);
    let related = [running];
    const store = createAuditStore(
      fakeClient({ ...handlers, 'audit.get': async () => ({ entry: post, related }) }).client,
    );
    await store.getState().select('e1');
    store.getState().askUndo('Delete this post from #general?');
    expect(store.getState().undoPrompt).toBeNull();
    expect(store.getState().notice).toEqual({ text: 'This undo is already under way.', isError: false });

    related = [];
    await store.getState().select('e1');
    store.getState().askUndo('Delete this post from #general?');
    expect(store.getState().undoPrompt?.kind).toBe('confirm');
  });
  it('after a reconnect, reads the list and the open entry again, and keeps the question asked beside Undo', async () => {
    const entry = (id: string, seq: number, status: string) => ({ id, seq, status }) as AuditEntry;
    let entries = [entry('e1', 1, 'completed')];
    const store = createAuditStore(
      fakeClient({
        ...handlers,
        'audit.list': async () => ({ entries, nextCursor: null }),
        'audit.get': async ({ id }) => ({
          entry: entries.find((shown) => shown.id === id) ?? entry(id, 0, 'gone'),
          related: [],
        }),
      }).client,
    );
    const state = () => store.getState();
    await state().reload();
    await state().select('e1');
    state().askUndo('Undo this?');
    const asked = state().undoPrompt;
    expect(asked).not.toBeNull();

    // Undone in another window while the socket was down, which also wrote the undo's own entry.
    entries = [entry('e2', 2, 'completed'), entry('e1', 1, 'undone')];
    await state().readAgain();
    expect(state().entries.map((shown) => shown.id)).toEqual(['e2', 'e1']);
    expect(state().detail?.entry.status).toBe('undone');
    expect(state().undoPrompt).toBe(asked);
  });
});
