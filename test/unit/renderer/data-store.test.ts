import { describe, expect, it } from 'vitest';
import type { CommandInput, DataStats } from '../../../shared/contract';
import { ClientError } from '../../../renderer/src/api/client-error';
import { createDataStore } from '../../../renderer/src/features/data/data-store';
import {
  compactOutcome,
  contextSummary,
  exportProgress,
  pruneQuestion,
  tasksExportOutcome,
  tasksExportProgress,
} from '../../../renderer/src/features/data/data-words';
import { formatBytes } from '../../../renderer/src/format';
import { fakeClient } from './fixtures';

const stats = (threads: number, totalBytes: number): DataStats => ({
  databaseBytes: totalBytes,
  walBytes: 0,
  totalBytes,
  counts: { threads, messages: 0, runs: 0, actions: 0, approvals: 0, events: 0, checkpoints: 0 },
});

describe('Settings → Data store', () => {
  it('counts first, deletes only after the confirmation, and reads the size again', async () => {
    let threads = 5;
    const fake = fakeClient({
      'data.stats': async () => stats(threads, 10_000),
      'threads.prune': async (input: CommandInput<'threads.prune'>) => {
        const old = 3;
        if (!input.dryRun) threads -= old;
        return { threads: old, before: '2026-01-01T00:00:00.000Z', dryRun: input.dryRun ?? false };
      },
    });
    const store = createDataStore(fake.client);
    await store.getState().load();
    expect(store.getState().stats?.counts.threads).toBe(5);

    store.getState().setPruneDays('30');
    await store.getState().checkPrune();
    expect(store.getState().pruneCheck).toEqual({ days: 30, threads: 3 });
    expect(threads).toBe(5);

    expect(await store.getState().prune()).toBe(3);
    expect(
      fake.calls.filter((entry) => entry.channel === 'threads.prune').map((entry) => entry.input),
    ).toEqual([{ olderThanDays: 30, dryRun: true }, { olderThanDays: 30 }]);
    expect(store.getState()).toMatchObject({ pruneCheck: null, outcome: 'Deleted 3 conversations.' });
    expect(store.getState().stats?.counts.threads).toBe(2);
  });

  it('says what is wrong with the number of days without asking the host', async () => {
    const fake = fakeClient({});
    const store = createDataStore(fake.client);
    store.getState().setPruneDays('0');
    await store.getState().checkPrune();
    expect(store.getState().error).toBe('Days: use a number from 1 to 36500.');
    expect(fake.calls).toEqual([]);
    // Nothing confirmed, nothing deleted.
    expect(await store.getState().prune()).toBe(0);
  });

  it('reports a compaction in bytes a person reads, and a failure in the host’s words', async () => {
    const fake = fakeClient({
      'data.compact': async () => ({ bytesBefore: 3 * 1024 * 1024, bytesAfter: 1024 * 1024 }),
      'data.stats': async () => stats(0, 1024 * 1024),
    });
    const store = createDataStore(fake.client);
    await store.getState().compact();
    expect(store.getState().outcome).toBe('Compacted: 3.0 MB → 1.0 MB, 2.0 MB freed.');

    const failing = createDataStore(
      fakeClient({ 'data.compact': () => Promise.reject(new ClientError('internal', 'Disk full.')) }).client,
    );
    await failing.getState().compact();
    expect(failing.getState()).toMatchObject({ error: 'Disk full.', outcome: null, busy: null });
  });
});

describe('Settings → Data words', () => {
  it('asks with the count and the days, and says when there is nothing to delete', () => {
    expect(pruneQuestion(1, 30)).toBe(
      '1 conversation has had no activity for more than 30 days. Delete it for good? This cannot be undone.',
    );
    expect(pruneQuestion(4, 1)).toMatch(
      /^4 conversations have had no activity for more than 1 day\. Delete them/,
    );
    expect(pruneQuestion(0, 90)).toBe('No conversation has been inactive for more than 90 days.');
  });

  it('says when compacting freed nothing', () => {
    expect(compactOutcome({ bytesBefore: 4096, bytesAfter: 4096 })).toBe(
      'Compacted. The database still takes 4.0 KB: there was no space to free.',
    );
  });

  it('formats sizes', () => {
    expect([formatBytes(1), formatBytes(512), formatBytes(1536), formatBytes(150 * 1024 * 1024)]).toEqual([
      '1 byte',
      '512 bytes',
      '1.5 KB',
      '150 MB',
    ]);
  });
});

describe('Settings → Data: the context index', () => {
  it('shows its size and clears it, saying how big it is now', async () => {
    let contacts = 1_200;
    const fake = fakeClient({
      'context.stats': async () => ({
        contacts,
        upcomingEvents: 4,
        vectors: 1,
        recentMail: 0,
        bytes: 2 * 1024 * 1024,
      }),
      'context.clear': async () => {
        contacts = 0;
        return { contacts, upcomingEvents: 0, vectors: 0, recentMail: 0, bytes: 4096 };
      },
    });
    const store = createDataStore(fake.client);
    await store.getState().loadContext();
    expect(
      contextSummary(
        store.getState().context ?? { contacts: 0, upcomingEvents: 0, vectors: 0, recentMail: 0, bytes: 0 },
      ),
    ).toBe('1,200 people, 4 coming events, 1 item indexed by meaning');

    await store.getState().clearContext();
    expect(store.getState().context).toMatchObject({ contacts: 0, vectors: 0 });
    expect(store.getState().outcome).toBe(
      `Cleared the context index (now ${formatBytes(4096)}). It fills again from your connected accounts.`,
    );
    expect(fake.calls.map((entry) => entry.channel)).toEqual(['context.stats', 'context.clear']);
  });
});

describe('Settings → Data: exporting conversations', () => {
  /** The host's pages of an export: three pages, the second going on inside a conversation. */
  const threePages = () =>
    fakeClient({
      'threads.export': async (input: CommandInput<'threads.export'>) =>
        ({
          undefined: { text: '{"id":"a","messages":[{}', nextCursor: '1.4', conversations: 1 },
          '1.4': { text: ']}\n{"id":"b","messages":[]}\n', nextCursor: '2', conversations: 1 },
          '2': { text: '{"id":"é","messages":[]}\n', nextCursor: null, conversations: 1 },
        })[String(input.cursor)] ?? Promise.reject(new ClientError('invalid_input', 'not a cursor')),
    });

  it('reads the pages in the format chosen, one after the other as the file takes them, and says what it saved', async () => {
    const fake = threePages();
    const store = createDataStore(fake.client);
    store.getState().setExportFormat('md');
    let saved = '';
    let offered = '';
    const progress: unknown[] = [];
    store.subscribe((state) => progress.push(state.exporting));
    await store.getState().exportConversations(async (pages, type) => {
      offered = type.name;
      for await (const page of pages) saved += page;
      return new Blob([saved]).size;
    });
    expect(offered).toBe('deputy-conversations.md');
    expect(fake.calls).toEqual([
      { channel: 'threads.export', input: { format: 'md' } },
      { channel: 'threads.export', input: { format: 'md', cursor: '1.4' } },
      { channel: 'threads.export', input: { format: 'md', cursor: '2' } },
    ]);
    expect(saved).toBe('{"id":"a","messages":[{}]}\n{"id":"b","messages":[]}\n{"id":"é","messages":[]}\n');
    // How far it had come showed as it went (the first page at once; the rest when a second has passed).
    expect(progress).toContainEqual({ conversations: 1 });
    expect(store.getState()).toMatchObject({
      busy: null,
      exporting: null,
      error: null,
      outcome: `Saved 3 conversations (${formatBytes(new Blob([saved]).size)}).`,
    });
    expect(exportProgress(0)).toBe('Exporting…');
    expect(exportProgress(120)).toBe('Exporting… 120 conversations');
  });

  it('says nothing when the person cancels the file picker, and why when the export stops', async () => {
    const store = createDataStore(threePages().client);
    await store.getState().exportConversations(async () => null);
    expect(store.getState()).toMatchObject({ busy: null, exporting: null, error: null, outcome: null });

    const failing = createDataStore(
      fakeClient({
        'threads.export': () => Promise.reject(new ClientError('disconnected', 'Deputy is not running.')),
      }).client,
    );
    await failing.getState().exportConversations(async (pages) => {
      for await (const page of pages) void page;
      return 0;
    });
    expect(failing.getState()).toMatchObject({
      busy: null,
      exporting: null,
      outcome: null,
      error: 'The export stopped, so the file was not saved. Deputy is not running.',
    });
  });
});

describe('Settings → Data: exporting tasks and memories', () => {
  const twoPages = () =>
    fakeClient({
      'tasksAndMemories.export': async (input: CommandInput<'tasksAndMemories.export'>) =>
        ({
          undefined: { text: '{"kind":"task"}\n', nextCursor: 'm0', tasks: 12, memories: 0 },
          m0: { text: '{"kind":"memory"}\n', nextCursor: null, tasks: 0, memories: 40 },
        })[String(input?.cursor)] ?? Promise.reject(new ClientError('invalid_input', 'not a cursor')),
    });

  it('reads the pages one after the other as the file takes them, and says how many of each it saved', async () => {
    const fake = twoPages();
    const store = createDataStore(fake.client);
    const progress: unknown[] = [];
    store.subscribe((state) => progress.push(state.exporting));
    let saved = '';
    let offered = '';
    await store.getState().exportTasksAndMemories(async (pages, type) => {
      offered = `${type.name} ${type.mime}`;
      for await (const page of pages) saved += page;
      return 8 * 1024;
    });
    expect(offered).toBe('deputy-tasks-and-memories.jsonl application/x-ndjson');
    expect(fake.calls).toEqual([
      { channel: 'tasksAndMemories.export', input: {} },
      { channel: 'tasksAndMemories.export', input: { cursor: 'm0' } },
    ]);
    expect(saved).toBe('{"kind":"task"}\n{"kind":"memory"}\n');
    expect(progress).toContainEqual({ tasks: 12, memories: 0 });
    expect(store.getState()).toMatchObject({
      busy: null,
      exporting: null,
      error: null,
      outcome: 'Saved 12 tasks and 40 memories (8.0 KB).',
    });
  });

  it('says nothing when the person cancels, and its words for one, none and how far it has come', async () => {
    const store = createDataStore(twoPages().client);
    await store.getState().exportTasksAndMemories(async () => null);
    expect(store.getState()).toMatchObject({ busy: null, exporting: null, error: null, outcome: null });
    expect(tasksExportOutcome(1, 1, 300)).toBe('Saved 1 task and 1 memory (300 bytes).');
    expect(tasksExportOutcome(0, 3, 300)).toBe('Saved no tasks and 3 memories (300 bytes).');
    expect(tasksExportOutcome(0, 0, 0)).toBe('There are no tasks or memories yet: the file saved is empty.');
    expect(tasksExportProgress(0, 0)).toBe('Exporting…');
    expect(tasksExportProgress(1_200, 0)).toBe('Exporting… 1,200 tasks and no memories');
  });
});
