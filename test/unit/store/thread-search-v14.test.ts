import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TASKS_THREAD_ID } from '../../../shared/tasks-thread';
import { toPrefixQuery, unmark } from '../../../electron/store/thread-search';
import { FIXTURE_DATABASES as FIXTURES, useFixtureCopies } from '../../support/fixture-copies';

const openCopy = useFixtureCopies();

describe('conversations searched by their messages (schema version 14)', () => {
  it('a frozen v14 database still finds a conversation by a word only in a message, with the word marked', () => {
    const before = readFileSync(join(FIXTURES, 'deputy-v14-search.db'));
    const store = openCopy('deputy-v14-search.db');
    try {
      const [hit, ...rest] = store.threadSearch.search('lisb seat', 20);
      expect(rest).toEqual([]);
      expect(hit).toMatchObject({
        thread: { id: 'thread-lisbon', title: 'Weekend plans' },
        messageId: 'msg-2',
      });
      const marked = (hit?.highlights ?? []).map(([start, end]) => hit?.snippet.slice(start, end));
      expect(marked).toEqual(['Lisbon', 'seat']);
      // A title match comes first, with no snippet; its words in any order and case.
      expect(store.threadSearch.search('groceries', 20)).toMatchObject([
        { thread: { id: 'thread-milk' }, messageId: null, snippet: '' },
      ]);
      expect(store.threadSearch.search('PLANS weekend', 20).map((hit) => hit.thread.id)).toEqual([
        'thread-lisbon',
      ]);
    } finally {
      store.close();
    }
    expect(readFileSync(join(FIXTURES, 'deputy-v14-search.db')).equals(before)).toBe(true);
  });

  it('a v13 database is indexed when it moves to 14: its old messages are found', () => {
    const store = openCopy('deputy-v13-plans.db');
    try {
      expect(store.db.pragma('user_version', { simple: true })).toBeGreaterThanOrEqual(14);
      const [message] = store.db.prepare<[], { text: string }>('SELECT text FROM messages LIMIT 1').all();
      const word = message?.text.match(/[\p{L}]{4,}/u)?.[0] ?? '';
      expect(word).not.toBe('');
      expect(store.threadSearch.search(word, 20).length).toBeGreaterThan(0);
    } finally {
      store.close();
    }
  });

  it('new and deleted messages keep the index whole; FTS syntax is only ever words; the Tasks panel is not listed', () => {
    const store = openCopy('deputy-v14-search.db');
    try {
      const at = '2026-11-24T09:00:00.000Z';
      store.transaction(() => {
        store.threads.create(TASKS_THREAD_ID, 'Tasks panel', at);
        store.threads.addMessage({
          id: 'm-t',
          threadId: TASKS_THREAD_ID,
          runId: null,
          role: 'user',
          text: 'porcupine',
          createdAt: at,
        });
        store.threads.create('t-new', 'New', at);
        store.threads.addMessage({
          id: 'm-new',
          threadId: 't-new',
          runId: null,
          role: 'user',
          text: 'A porcupine visit',
          createdAt: at,
        });
      });
      expect(store.threadSearch.search('porcupine', 20).map((hit) => hit.thread.id)).toEqual(['t-new']);
      store.db.prepare("DELETE FROM threads WHERE id = 't-new'").run();
      expect(store.threadSearch.search('porcupine', 20)).toEqual([]);
      for (const nasty of ['"', 'AND(', 'lisbon OR', '*', 'NEAR(a b)', "'; DROP TABLE messages; --"])
        expect(() => store.threadSearch.search(nasty, 20)).not.toThrow();
    } finally {
      store.close();
    }
  });

  it("reads a query as quoted prefixes, and a snippet's marks as ranges", () => {
    expect(toPrefixQuery('Lisbon "AND" flight*')).toBe('"lisbon"* "and"* "flight"*');
    expect(toPrefixQuery('  ?! ')).toBeNull();
    expect(unmark('a \u0002Lisbon\u0003 flight')).toEqual({ text: 'a Lisbon flight', highlights: [[2, 8]] });
  });
});
