import { describe, expect, it } from 'vitest';
import { TasksMemoriesExport } from '../../electron/host/tasks-memories-export';
import { storeOf } from '../support/durable-kit';
import { closedAfterEach, serveApi } from '../support/api-server';
import { openHost } from '../support/host-fixture';
import { ScriptedModel } from '../support/scripted-model';

const TOKEN = 'tasks-memories-export-token';
const SECRET = 'xoxp-2718281828-3141592653-5772156649-fe0a1b2c3d4e5f60718293a4b5c6d7e8';
const { fixtures, servers } = closedAfterEach();

const AT = '2026-03-01T09:00:00.000Z';

/** A host with `tasks` tasks (the second one done, the first with a token in its notes) and `memories` memories. */
async function hostWith(tasks: number, memories: number) {
  const fixture = await openHost(new ScriptedModel());
  fixtures.push(fixture);
  const store = storeOf(fixture.host);
  for (let i = 0; i < tasks; i += 1)
    store.tasks.add(
      {
        id: `task-${i}`,
        description: `Task ${i}`,
        due: i === 0 ? '2026-03-05' : null,
        notes: i === 0 ? `the key is ${SECRET}` : null,
      },
      AT,
    );
  if (tasks > 1) store.tasks.complete('task-1', AT);
  for (let i = 0; i < memories; i += 1)
    store.memories.add(
      { id: `memory-${i}`, text: `Memory ${i}`, origin: 'person', isConfirmed: true, sourceRunId: null },
      AT,
    );
  const { server, api } = await serveApi(fixture, TOKEN);
  servers.push(server);
  return { fixture, api };
}

type Line = { kind: 'task' | 'memory'; id: string } & Record<string, unknown>;
const linesOf = (text: string): Line[] =>
  text
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as Line);

describe('GET /api/tasks-and-memories/export', () => {
  it('streams every task, then every memory, as JSON lines with their kind, and no secret', async () => {
    const { fixture, api } = await hostWith(3, 2);
    const response = await api('/api/tasks-and-memories/export');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8');
    expect(response.headers.get('content-disposition')).toBe(
      'attachment; filename="deputy-tasks-and-memories.jsonl"',
    );
    const text = await response.text();
    const lines = linesOf(text);
    expect(lines.map((line) => `${line.kind} ${line.id}`)).toEqual([
      'task task-0',
      'task task-1',
      'task task-2',
      'memory memory-0',
      'memory memory-1',
    ]);
    expect(lines[0]).toEqual({
      kind: 'task',
      id: 'task-0',
      description: 'Task 0',
      notes: 'the key is [redacted]',
      due: '2026-03-05',
      status: 'open',
      createdAt: AT,
      updatedAt: AT,
      completedAt: null,
    });
    expect(lines[1]).toMatchObject({ status: 'done', completedAt: AT });
    expect(lines[3]).toEqual({
      kind: 'memory',
      id: 'memory-0',
      text: 'Memory 0',
      origin: 'person',
      source: null,
      confirmedAt: AT,
      createdAt: AT,
      updatedAt: AT,
    });
    expect(text).not.toContain(SECRET);
    expect(await fixture.host.invoke('tasksAndMemories.export', {})).toEqual({
      text,
      nextCursor: null,
      tasks: 3,
      memories: 2,
    });
  });

  it('pages add up to the whole, across the tasks and into the memories, and go on from a cursor over HTTP', async () => {
    const { fixture, api } = await hostWith(450, 420);
    const whole = await (await api('/api/tasks-and-memories/export')).text();
    const pages = [];
    let cursor: string | null | undefined;
    let counted = { tasks: 0, memories: 0 };
    do {
      const page = await fixture.host.invoke('tasksAndMemories.export', cursor ? { cursor } : {});
      pages.push(page);
      counted = { tasks: counted.tasks + page.tasks, memories: counted.memories + page.memories };
      cursor = page.nextCursor;
    } while (cursor !== null);
    expect(pages.map((page) => page.nextCursor)).toEqual(['t200', 't400', 'm150', 'm350', null]);
    expect(counted).toEqual({ tasks: 450, memories: 420 });
    expect(pages.map((page) => page.text).join('')).toBe(whole);
    const rest = await api('/api/tasks-and-memories/export?cursor=m150');
    expect(pages[0]?.text.length).toBeGreaterThan(0);
    expect(await rest.text()).toBe(
      pages
        .slice(3)
        .map((page) => page.text)
        .join(''),
    );
  });

  it('hands out the memories’ start when the tasks fill a page exactly', () => {
    const rows = {
      tasksAfter: (after: number, limit: number) =>
        Array.from({ length: Math.min(limit, 2 - after) }, (_, i) => ({
          position: after + i + 1,
          id: `t${after + i + 1}`,
          description: 'x',
          notes: null,
          due: null,
          status: 'open' as const,
          createdAt: AT,
          updatedAt: AT,
          completedAt: null,
        })),
      memoriesAfter: () => [],
      lastMemoryPosition: () => 0,
    };
    const exporter = new TasksMemoriesExport(rows as never, 2);
    const first = exporter.page({});
    expect([first.tasks, first.nextCursor]).toEqual([2, 'm0']);
    expect(exporter.page({ cursor: 'm0' })).toEqual({ text: '', nextCursor: null, tasks: 0, memories: 0 });
  });

  it('answers 400 for a cursor no page handed out, before any of the export', async () => {
    const { fixture, api } = await hostWith(2, 2);
    for (const cursor of ['abc', 'x1', 't', 't0', 't01', 'm999', 'm9999999999999999', 't1.2']) {
      const response = await api(`/api/tasks-and-memories/export?cursor=${cursor}`);
      expect([cursor, response.status]).toEqual([cursor, 400]);
      expect(response.headers.get('content-disposition')).toBeNull();
      expect(await response.json()).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    }
    // A memory forgotten since still leaves its place good.
    storeOf(fixture.host).memories.delete('memory-1');
    expect((await api('/api/tasks-and-memories/export?cursor=m2')).status).toBe(200);
  });

  it('is empty, not an error, with no tasks or memories', async () => {
    const { api } = await hostWith(0, 0);
    const response = await api('/api/tasks-and-memories/export');
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('');
  });
});
