import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RUNTIME_CODES, STREAM_CODES } from '../../../electron/store/journal-codes';
import { RunEvent } from '../../../shared/contract';
import { FIXTURE_DATABASES as FIXTURES, useFixtureCopies } from '../../support/fixture-copies';

const openCopy = useFixtureCopies();

const ids = { runId: 'run-q3', threadId: 'thread-q3' };

describe('the compact journal (schema version 15)', () => {
  it('a frozen v15 database reads a run begun in the old events table and finished in the journal, in order', () => {
    const before = readFileSync(join(FIXTURES, 'deputy-v15-journal.db'));
    const store = openCopy('deputy-v15-journal.db');
    try {
      expect(store.events.byRun('run-q3')).toEqual([
        { type: 'status', ...ids, status: 'queued' },
        { type: 'status', ...ids, status: 'executing' },
        {
          type: 'tool_call',
          ...ids,
          actionId: 'action-1',
          tool: 'list_tasks',
          args: { query: 'quarterly' },
          state: 'executing',
        },
        {
          type: 'tool_result',
          ...ids,
          actionId: 'action-1',
          tool: 'list_tasks',
          state: 'completed',
          result: { tasks: [], isTruncated: false },
        },
        { type: 'usage', ...ids, usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15 } },
        { type: 'status', ...ids, status: 'completed' },
      ]);
      expect(store.events.runtimeByRun('run-q3')).toEqual([
        {
          type: 'turn_start',
          ...ids,
          agentId: 'deputy',
          turn: 1,
          timestamp: '2026-11-26T09:00:00.000Z',
          payload: { model: 'gemini-2.5-flash' },
        },
        {
          type: 'tool_call_start',
          ...ids,
          agentId: 'deputy',
          turn: 1,
          timestamp: '2026-11-26T09:00:01.200Z',
          toolCallId: 'call-1',
          payload: { tool: 'list_tasks', actionId: 'action-1' },
        },
        {
          type: 'tool_call_end',
          ...ids,
          agentId: 'deputy',
          turn: 1,
          timestamp: '2026-11-26T09:00:01.400Z',
          toolCallId: 'call-1',
          payload: { ok: true, attempts: 1 },
        },
      ]);
      // A thread other than the run's own, and an agent other than the chat's, are kept on the row.
      expect(store.events.byRun('run-child')).toEqual([
        {
          type: 'notice',
          runId: 'run-child',
          threadId: 'thread-q3',
          actionId: 'action-2',
          tool: 'web_search',
          message: 'Searched',
        },
      ]);
      expect(store.events.runtimeByRun('run-child')).toMatchObject([
        { type: 'turn_start', threadId: 'thread-child', agentId: 'researcher' },
      ]);
      expect(store.data.counts().events).toBe(11);
    } finally {
      store.close();
    }
    expect(readFileSync(join(FIXTURES, 'deputy-v15-journal.db')).equals(before)).toBe(true);
  });

  it('keeps the type codes the file says, so a code is never read as another type', () => {
    const store = openCopy('deputy-v15-journal.db');
    try {
      const stored = store.db
        .prepare<[], { code: number; name: string; kind: string }>(
          'SELECT code, name, kind FROM journal_types',
        )
        .all();
      const known = [
        ...Object.entries(STREAM_CODES).map(([name, code]) => ({ code, name, kind: 'stream' })),
        ...Object.entries(RUNTIME_CODES).map(([name, code]) => ({ code, name, kind: 'runtime' })),
      ];
      expect(stored.sort((a, b) => a.code - b.code)).toEqual(known.sort((a, b) => a.code - b.code));
    } finally {
      store.close();
    }
  });

  it('writes rows that hold no ids and no type names, and take a deleted conversation with them', () => {
    const store = openCopy('deputy-v15-journal.db');
    try {
      const bodies = store.db.prepare<[], string>('SELECT body FROM journal').pluck().all();
      expect(bodies.length).toBeGreaterThan(0);
      for (const body of bodies) expect(body).not.toMatch(/run-q3|"type"/);
      expect(store.data.deleteThread('thread-q3')).toBe(true);
      expect(
        store.db.prepare("SELECT count(*) FROM journal_events WHERE run_id = 'run-q3'").pluck().get(),
      ).toBe(0);
      expect(store.db.prepare("SELECT count(*) FROM run_keys WHERE run_id = 'run-q3'").pluck().get()).toBe(0);
      expect(store.events.runtimeByRun('run-child')).toHaveLength(1);
    } finally {
      store.close();
    }
  });

  it('reads a stored tool_result without a code as before, and one with a code (a call cut off) with it', () => {
    const store = openCopy('deputy-v15-journal.db');
    try {
      const cutOff = {
        type: 'tool_result',
        ...ids,
        actionId: 'action-3',
        tool: 'list_tasks',
        state: 'failed',
        error: 'list_tasks was stopped because the run was cancelled.',
        code: 'cancelled',
      } as const;
      store.events.append(cutOff, '2026-11-26T09:00:02.000Z');
      // As a client reads them: through the contract's schema.
      const results = store.events
        .byRun('run-q3')
        .map((event) => RunEvent.parse(event))
        .filter((event) => event.type === 'tool_result');
      expect(results).toHaveLength(2);
      expect(results[0]).toMatchObject({ state: 'completed', result: { tasks: [], isTruncated: false } });
      expect(results[0]).not.toHaveProperty('code');
      expect(results[1]).toEqual(cutOff);
    } finally {
      store.close();
    }
  });
});
