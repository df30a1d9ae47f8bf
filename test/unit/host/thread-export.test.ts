import { afterEach, describe, expect, it } from 'vitest';
import { ThreadsExportCursor, ThreadsExportInput, type ThreadsExportOutput } from '../../../shared/contract';
import { TASKS_THREAD_ID } from '../../../shared/tasks-thread';
import { ThreadExport, type ExportPageSize } from '../../../electron/host/thread-export';
import type { Store } from '../../../electron/store/store';
import { forgetKnownSecrets, rememberSecret } from '../../../electron/vault/redactor';
import { useTempStores } from '../../support/fixture-copies';

const newStore = useTempStores();
afterEach(() => forgetKnownSecrets());

const PASTED = 'xoxp-2718281828-3141592653-5772156649-fe0a1b2c3d4e5f60718293a4b5c6d7e8';
const at = (minute: number) => new Date(Date.UTC(2026, 2, 12, 9, minute)).toISOString();

function exporter(store: Store, pageSize?: ExportPageSize): ThreadExport {
  return new ThreadExport({
    rows: store.threadExport,
    now: () => new Date('2026-03-14T10:00:00Z'),
    timezone: () => 'Europe/Lisbon',
    agentName: (name) => (name === 'task-helper' ? 'Task helper' : name),
    ...(pageSize && { pageSize }),
  });
}

/** A conversation with `count` messages, questions and answers in turn, written as Deputy writes them. */
function conversation(store: Store, id: string, count: number, start = 0, title = `About ${id}`): void {
  store.threads.create(id, title, at(start));
  store.runs.create({ id: `${id}-run`, threadId: id, model: 'm', prompt: 'p' }, at(start));
  store.transaction(() => {
    for (let i = 0; i < count; i += 1)
      store.threads.addMessage({
        id: `${id}-m${i}`,
        threadId: id,
        runId: `${id}-run`,
        role: i % 2 === 0 ? 'user' : 'assistant',
        text: i % 2 === 0 ? `Question ${i} of ${id}` : `Answer ${i} of ${id}:\n\n- **one**\n- two`,
        createdAt: at(start + i),
      });
  });
}

/** Every page of an export, asked for as a client would (each input parsed by the contract), in order. */
function allPages(exported: ThreadExport, format: 'jsonl' | 'md'): ThreadsExportOutput[] {
  const pages: ThreadsExportOutput[] = [];
  let cursor: string | undefined;
  do {
    const page = exported.page(ThreadsExportInput.parse({ format, ...(cursor && { cursor }) }));
    pages.push(page);
    cursor = page.nextCursor ?? undefined;
    expect(pages.length).toBeLessThan(10_000);
  } while (cursor !== undefined);
  return pages;
}

const whole = (pages: ThreadsExportOutput[]) => pages.map((page) => page.text).join('');

interface Line {
  id: string;
  title: string;
  createdAt: string;
  updatedAt: string;
  messages: { role: string; text: string; createdAt: string; runId: string | null; agent?: string }[];
}
const lines = (text: string): Line[] =>
  text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Line);

describe('exporting conversations', () => {
  it('writes one conversation a line, oldest first, with what the conversation shows as said', () => {
    const store = newStore();
    conversation(store, 'older', 2, 0, 'Lisbon trip');
    conversation(store, 'newer', 1, 30);
    // A run of the newer one delegated to an agent; the agent's words are headed with its name, as its row shows.
    store.runs.create({ id: 'child', threadId: 'newer', model: 'm', prompt: 'task' }, at(31));
    store.lineage.create({
      id: 'l1',
      runId: 'child',
      parentAgentId: null,
      parentRunId: 'newer-run',
      parentActionId: 'a1',
      role: 'task-helper',
      depth: 1,
      grantedTools: [],
      createdAt: at(31),
    });
    store.threads.addMessage({
      id: 'child-said',
      threadId: 'newer',
      runId: 'child',
      role: 'assistant',
      text: 'Nothing is open.',
      createdAt: at(32),
    });
    // A run that ended with no words of its own answered with its summary, as the conversation shows it.
    store.runs.end(
      'newer-run',
      {
        status: 'completed',
        mode: 'tool_call',
        summary: 'Added the task.',
        decision: 'INVOKE_TOOL',
        outcome: 'SUCCESS:TASK_COMPLETED',
        errorCode: null,
        errorMessage: null,
      },
      at(33),
    );
    store.threads.create(TASKS_THREAD_ID, 'Tasks', at(40));

    const pages = allPages(exporter(store), 'jsonl');
    expect(pages).toHaveLength(1);
    expect(pages[0]?.conversations).toBe(2);
    expect(lines(whole(pages))).toEqual([
      {
        id: 'older',
        title: 'Lisbon trip',
        createdAt: at(0),
        updatedAt: at(0),
        messages: [
          { role: 'user', text: 'Question 0 of older', createdAt: at(0), runId: 'older-run' },
          {
            role: 'assistant',
            text: 'Answer 1 of older:\n\n- **one**\n- two',
            createdAt: at(1),
            runId: 'older-run',
          },
        ],
      },
      {
        id: 'newer',
        title: 'About newer',
        createdAt: at(30),
        updatedAt: at(30),
        messages: [
          { role: 'user', text: 'Question 0 of newer', createdAt: at(30), runId: 'newer-run' },
          {
            role: 'assistant',
            text: 'Nothing is open.',
            createdAt: at(32),
            runId: 'child',
            agent: 'Task helper',
          },
          { role: 'assistant', text: 'Added the task.', createdAt: at(33), runId: 'newer-run' },
        ],
      },
    ]);
  });

  it('writes one Markdown document: a heading with its date per conversation, then who said what, as written', () => {
    const store = newStore();
    conversation(store, 'older', 2, 0, 'Lisbon trip');
    const [page] = allPages(exporter(store), 'md');
    expect(page?.text).toBe(
      [
        '# Conversations with Deputy',
        '',
        'Exported 14 March 2026 at 10:00. Dates are in Europe/Lisbon time.',
        '',
        '## Lisbon trip — 12 March 2026',
        '',
        '**You:**',
        '',
        'Question 0 of older',
        '',
        '**Deputy:**',
        '',
        'Answer 1 of older:',
        '',
        '- **one**',
        '- two',
        '',
      ].join('\n'),
    );
  });

  it('pages by messages: a conversation larger than a page spans pages, and the pages add up to the whole', () => {
    const store = newStore();
    conversation(store, 'small', 2, 0);
    conversation(store, 'large', 25, 10);
    conversation(store, 'last', 1, 100);
    const size = { entries: 4, chars: 10_000 };
    for (const format of ['jsonl', 'md'] as const) {
      const pages = allPages(exporter(store, size), format);
      // 3 heads and 28 messages, 4 a page at most.
      expect(pages.length).toBeGreaterThanOrEqual(8);
      for (const page of pages) {
        const said = page.text.match(format === 'jsonl' ? /"role":/g : /\*\*(You|Deputy):\*\*/g);
        expect(said?.length ?? 0).toBeLessThanOrEqual(4);
        if (page.nextCursor !== null)
          expect(ThreadsExportCursor.safeParse(page.nextCursor).success).toBe(true);
      }
      expect(pages.reduce((total, page) => total + page.conversations, 0)).toBe(3);
      expect(whole(pages)).toBe(whole(allPages(exporter(store), format)));
    }
    const exported = lines(whole(allPages(exporter(store, size), 'jsonl')));
    expect(exported.map((line) => [line.id, line.messages.length])).toEqual([
      ['small', 2],
      ['large', 25],
      ['last', 1],
    ]);
  });

  it('pages add up to the whole when a run’s answer was given in the same instant as messages on both sides of a page’s end', () => {
    const store = newStore();
    store.threads.create('ties', 'Ties', at(0));
    const say = (id: string, runId: string, role: 'user' | 'assistant', minute: number) =>
      store.threads.addMessage({ id, threadId: 'ties', runId, role, text: id, createdAt: at(minute) });
    // The first run answered only with its summary, at the very time the next run's two messages were written.
    store.runs.create({ id: 'first', threadId: 'ties', model: 'm', prompt: 'p' }, at(0));
    say('asked first', 'first', 'user', 0);
    store.runs.end(
      'first',
      {
        status: 'completed',
        mode: 'tool_call',
        summary: 'answered by its summary',
        decision: 'INVOKE_TOOL',
        outcome: 'SUCCESS:TASK_COMPLETED',
        errorCode: null,
        errorMessage: null,
      },
      at(1),
    );
    store.runs.create({ id: 'second', threadId: 'ties', model: 'm', prompt: 'p' }, at(1));
    say('asked second', 'second', 'user', 1);
    say('answered second', 'second', 'assistant', 1);
    const said = (pages: ThreadsExportOutput[]) => lines(whole(pages))[0]?.messages.map(({ text }) => text);
    // As the conversation shows them: at the same time, the messages first, then the run's answer.
    const inOnePage = allPages(exporter(store), 'jsonl');
    expect(said(inOnePage)).toEqual([
      'asked first',
      'asked second',
      'answered second',
      'answered by its summary',
    ]);
    for (const format of ['jsonl', 'md'] as const)
      expect(whole(allPages(exporter(store, { entries: 1, chars: 10_000 }), format))).toBe(
        whole(allPages(exporter(store), format)),
      );
  });

  it('keeps a page bounded however large a conversation is', () => {
    const store = newStore();
    conversation(store, 'huge', 10_000, 0);
    const pages = allPages(exporter(store), 'jsonl');
    expect(pages.length).toBeGreaterThanOrEqual(50);
    expect(Math.max(...pages.map((page) => page.text.length))).toBeLessThan(64 * 1024);
    const [line] = lines(whole(pages));
    expect(line?.messages).toHaveLength(10_000);
    expect(line?.messages.at(-1)?.text).toBe('Answer 9999 of huge:\n\n- **one**\n- two');
  });

  it('goes on from a cursor with the rest, and past a conversation deleted while it was inside it', () => {
    const store = newStore();
    conversation(store, 'first', 6, 0);
    conversation(store, 'second', 2, 20);
    const exported = exporter(store, { entries: 3, chars: 10_000 });
    const one = exported.page({ format: 'jsonl' });
    expect(one.nextCursor).toMatch(/^\d+\.\d+$/);
    store.data.deleteThread('first');
    const rest = allPagesFrom(exported, one.nextCursor ?? '');
    // The deleted conversation's line is closed where it stopped; the next one is whole.
    expect(lines(one.text + whole(rest)).map((line) => [line.id, line.messages.length])).toEqual([
      ['first', 2],
      ['second', 2],
    ]);
    // A cursor it never handed out is refused by the contract, not read as page one.
    expect(ThreadsExportInput.safeParse({ format: 'jsonl', cursor: 'abc' }).success).toBe(false);
    expect(ThreadsExportInput.safeParse({ format: 'csv' }).success).toBe(false);
    expect(ThreadsExportInput.safeParse({ format: 'md', extra: 1 }).success).toBe(false);
  });

  it('lets no secret out: one pasted before it was known, or of a shape the redactor knows', () => {
    const store = newStore();
    const known = 'a-key-saved-later-in-settings-0123456789';
    store.threads.create('t', 'Keys', at(0));
    // Written as an older Deputy stored it, before the redactor knew either: straight into the table.
    store.db
      .prepare(
        'INSERT INTO messages (id, thread_id, run_id, role, text, created_at) VALUES (?, ?, NULL, ?, ?, ?)',
      )
      .run('m1', 't', 'user', `Here is the token ${PASTED} and my key ${known}`, at(1));
    store.db.prepare('UPDATE threads SET title = ? WHERE id = ?').run(`Keys ${PASTED}`, 't');
    rememberSecret(known);
    for (const format of ['jsonl', 'md'] as const) {
      const text = whole(allPages(exporter(store), format));
      expect(text).not.toContain(PASTED);
      expect(text).not.toContain(known);
      expect(text).toContain('[redacted]');
      expect(text).toContain('Here is the token');
    }
  });
});

function allPagesFrom(exported: ThreadExport, cursor: string): ThreadsExportOutput[] {
  const pages: ThreadsExportOutput[] = [];
  let next: string | null = cursor;
  while (next !== null) {
    const page = exported.page(ThreadsExportInput.parse({ format: 'jsonl', cursor: next }));
    pages.push(page);
    next = page.nextCursor;
  }
  return pages;
}
