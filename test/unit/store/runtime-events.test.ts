import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../electron/store/database';
import type { RuntimeEvent } from '../../../electron/store/journal-codes';
import { Store } from '../../../electron/store/store';

function storeWithRun(): Store {
  const store = new Store(openDatabase(':memory:'));
  store.threads.create('t', 'T', 'n');
  store.runs.create({ id: 'r', threadId: 't', model: 'm', prompt: 'p' }, 'n');
  store.runs.create({ id: 'other', threadId: 't', model: 'm', prompt: 'p' }, 'n');
  return store;
}

const event = (
  type: RuntimeEvent['type'],
  turn: number,
  extra: Partial<RuntimeEvent> = {},
): RuntimeEvent => ({
  type,
  runId: 'r',
  threadId: 't',
  agentId: 'deputy',
  turn,
  timestamp: `2026-01-01T00:00:0${turn}.000Z`,
  payload: {},
  ...extra,
});

describe('the runtime event log', () => {
  it('returns a run’s runtime events in the order they were written', () => {
    const store = storeWithRun();
    const written = [
      event('turn_start', 1),
      event('tool_call_start', 1, { toolCallId: 'c1', payload: { tool: 'add_task' } }),
      event('tool_call_end', 1, { toolCallId: 'c1', payload: { ok: true } }),
      event('turn_end', 1, { payload: { tokens: 12 } }),
      event('completion', 2),
    ];
    for (const entry of written) store.events.appendRuntime(entry);
    store.events.appendRuntime(event('turn_start', 1, { runId: 'other' }));
    expect(store.events.runtimeByRun('r')).toEqual(written);
    expect(store.events.runtimeByRun('other')).toHaveLength(1);
  });

  it('keeps runtime rows and stream events apart', () => {
    const store = storeWithRun();
    store.events.append({ type: 'status', runId: 'r', threadId: 't', status: 'executing' }, 'n');
    store.events.appendRuntime(event('turn_start', 1));
    store.events.append({ type: 'status', runId: 'r', threadId: 't', status: 'completed' }, 'n');
    expect(store.events.byRun('r')).toEqual([
      { type: 'status', runId: 'r', threadId: 't', status: 'executing' },
      { type: 'status', runId: 'r', threadId: 't', status: 'completed' },
    ]);
    expect(store.events.runtimeByRun('r').map((entry) => entry.type)).toEqual(['turn_start']);
    const kinds = store.db.prepare('SELECT kind, event_type, turn FROM journal_events ORDER BY seq').all();
    expect(kinds).toEqual([
      { kind: 'stream', event_type: 'status', turn: null },
      { kind: 'runtime', event_type: 'turn_start', turn: 1 },
      { kind: 'stream', event_type: 'status', turn: null },
    ]);
  });

  it('stores no secrets', () => {
    const store = storeWithRun();
    const token = 'xoxb-1234567890-abcdefghijkl';
    store.events.appendRuntime(event('error', 1, { payload: { message: `Slack refused ${token}` } }));
    const stored = store.db.prepare("SELECT body FROM journal_events WHERE kind = 'runtime'").pluck().get();
    expect(stored).not.toContain(token);
    expect(store.events.runtimeByRun('r')[0]?.payload).toEqual({ message: 'Slack refused [redacted]' });
  });

  it('leaves out rows that do not read as runtime events', () => {
    const store = storeWithRun();
    store.events.appendRuntime(event('turn_start', 1));
    const insert = store.db.prepare(
      "INSERT INTO events (run_id, thread_id, event_type, timestamp, payload, kind) VALUES ('r', 't', 'x', 'n', ?, 'runtime')",
    );
    insert.run('{not json');
    insert.run(JSON.stringify({ ...event('turn_end', 1), type: 'no_such_type' }));
    insert.run(JSON.stringify({ ...event('turn_end', 1), payload: 'text' }));
    store.events.appendRuntime(event('turn_end', 1));
    expect(store.events.runtimeByRun('r').map((entry) => entry.type)).toEqual(['turn_start', 'turn_end']);
  });

  it('offers no way to change or remove an entry', () => {
    const store = storeWithRun();
    const methods = Object.getOwnPropertyNames(Object.getPrototypeOf(store.events));
    expect(methods.filter((name) => /update|delete|remove|clear|set/i.test(name))).toEqual([]);
  });
});
