import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { DATABASE_FILE } from '../../electron/host/create-host';
import type { ModelClient } from '../../electron/llm/model-client';
import { GatedModel, lastPrompt, until } from '../support/gated-model';
import { closedAfterEach, serveApi } from '../support/api-server';
import { openHost, type HostFixture } from '../support/host-fixture';
import { call, say, ScriptedModel } from '../support/scripted-model';

const TOKEN = 'data-test-token';
const { fixtures, servers } = closedAfterEach();

async function open(model: ModelClient, now?: () => Date) {
  const fixture = await openHost(model, now ? { now } : {});
  fixtures.push(fixture);
  await fixture.host.invoke('settings.set', { trustLevel: 'autonomous' });
  return fixture;
}

async function serve(fixture: HostFixture) {
  const { server, api } = await serveApi(fixture, TOKEN);
  servers.push(server);
  return api;
}

/** Rows of every table a conversation owns, counted straight from the file by thread. */
type ThreadRows = Record<
  'threads' | 'messages' | 'runs' | 'actions' | 'approvals' | 'events' | 'checkpoints',
  number
>;

function rowsOf(fixture: HostFixture, threadId: string): ThreadRows {
  const db = new Database(join(fixture.dataDir, DATABASE_FILE), { readonly: true });
  try {
    const count = (sql: string): number => db.prepare(sql).pluck().get(threadId) as number;
    return {
      threads: count('SELECT count(*) FROM threads WHERE id = ?'),
      messages: count('SELECT count(*) FROM messages WHERE thread_id = ?'),
      runs: count('SELECT count(*) FROM runs WHERE thread_id = ?'),
      actions: count('SELECT count(*) FROM actions WHERE thread_id = ?'),
      approvals: count('SELECT count(*) FROM approvals WHERE thread_id = ?'),
      events: count(
        `WITH t (id) AS (SELECT ?) SELECT (SELECT count(*) FROM events, t WHERE thread_id = t.id) +
           (SELECT count(*) FROM journal_events, t WHERE thread_id = t.id)`,
      ),
      checkpoints: count('SELECT count(*) FROM checkpoints WHERE thread_id = ?'),
    };
  } finally {
    db.close();
  }
}

function auditEvents(fixture: HostFixture): string[] {
  const db = new Database(join(fixture.dataDir, DATABASE_FILE), { readonly: true });
  try {
    return db.prepare("SELECT event FROM audit WHERE event LIKE 'thread%'").pluck().all() as string[];
  } finally {
    db.close();
  }
}

const addTask = (description: string) =>
  call('add_task', { description, intent: 'add a task', confidence: 0.95 }, `call-${description}`);

describe('deleting a conversation', () => {
  it('removes the thread with its runs, messages, actions, approvals, events and checkpoints, and nothing else', async () => {
    const model = new ScriptedModel(addTask('Milk'), say('Added milk.'), say('Hello.'));
    const fixture = await open(model);
    const { host } = fixture;
    const doomed = await host.runToEnd({ prompt: 'Add milk' });
    await host.runToEnd({ prompt: 'And say hello', threadId: doomed.threadId });
    const kept = await host.runToEnd({ prompt: 'Something else' });
    // A paused run with a pending approval in the doomed thread.
    await host.invoke('settings.set', { trustLevel: 'supervised' });
    model.script(addTask('Eggs'));
    const paused = await host.runToEnd({ prompt: 'Add eggs', threadId: doomed.threadId });
    expect(paused.status).toBe('awaiting_confirmation');

    const before = rowsOf(fixture, doomed.threadId);
    expect(before).toMatchObject({ threads: 1, runs: 3, actions: 2, approvals: 1 });
    expect(before.messages).toBeGreaterThan(0);
    expect(before.events).toBeGreaterThan(0);
    expect(before.checkpoints).toBeGreaterThan(0);
    const keptBefore = rowsOf(fixture, kept.threadId);

    expect(await host.invoke('thread.delete', { threadId: doomed.threadId })).toEqual({
      deleted: doomed.threadId,
      stoppedRuns: 0,
    });
    expect(Object.values(rowsOf(fixture, doomed.threadId))).toEqual([0, 0, 0, 0, 0, 0, 0]);
    expect(rowsOf(fixture, kept.threadId)).toEqual(keptBefore);
    expect(auditEvents(fixture)).toEqual(['thread_deleted']);
    expect((await host.invoke('approval.list', { status: 'pending' })).approvals).toEqual([]);
    const threads = await host.invoke('threads.list', {});
    expect(threads.threads.map((thread) => thread.id)).toEqual([kept.threadId]);
    await expect(host.invoke('thread.get', { threadId: doomed.threadId })).rejects.toMatchObject({
      code: 'not_found',
    });
  });

  it('stops a run that is still working in it first, and refuses new messages to it meanwhile', async () => {
    const model = new GatedModel();
    const fixture = await open(model);
    const { host } = fixture;
    const running = host.runToEnd({ prompt: 'Think for a long time' });
    await until(() => model.held.length === 1);
    const threadIdOf = (await host.invoke('threads.list', {})).threads[0]?.id ?? '';

    const deleting = host.invoke('thread.delete', { threadId: threadIdOf });
    await expect(host.invoke('run.start', { prompt: 'More', threadId: threadIdOf })).rejects.toMatchObject({
      code: 'not_found',
    });
    expect(await deleting).toEqual({ deleted: threadIdOf, stoppedRuns: 1 });
    expect(await running).toMatchObject({ status: 'failed' });
    expect(model.held).toEqual([]);
    expect(Object.values(rowsOf(fixture, threadIdOf))).toEqual([0, 0, 0, 0, 0, 0, 0]);
  });

  it('answers over HTTP: 200 and gone, 404 for an unknown id, 400 for one that is not an id', async () => {
    const fixture = await open(new ScriptedModel(say('Hi.')));
    const api = await serve(fixture);
    const { threadId } = await fixture.host.runToEnd({ prompt: 'Hello' });

    const deleted = await api(`/api/threads/${threadId}`, { method: 'DELETE' });
    expect(deleted.status).toBe(200);
    expect(await deleted.json()).toEqual({ deleted: threadId, stoppedRuns: 0 });
    expect((await api(`/api/threads/${threadId}`)).status).toBe(404);

    const unknown = await api('/api/threads/no-such-thread', { method: 'DELETE' });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ ok: false, error: { code: 'not_found' } });
    const bad = await api(`/api/threads/${encodeURIComponent('bad id; drop')}`, { method: 'DELETE' });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    const long = await api(`/api/threads/${'x'.repeat(200)}`, { method: 'DELETE' });
    expect(long.status).toBe(400);
  });
});

describe('pruning old conversations', () => {
  it('counts, then deletes, the conversations last active before the cut-off, and keeps the rest', async () => {
    let day = 0;
    const start = Date.parse('2026-01-01T12:00:00Z');
    const now = () => new Date(start + day * 24 * 60 * 60 * 1000);
    const model = new ScriptedModel(say('Old.'), say('Recent.'), say('Old again.'));
    const fixture = await open(model, now);
    const { host } = fixture;
    const old = await host.runToEnd({ prompt: 'An old one' });
    day = 30;
    const recent = await host.runToEnd({ prompt: 'A recent one' });
    day = 2;
    const alsoOld = await host.runToEnd({ prompt: 'Another old one' });
    day = 40;

    const preview = await host.invoke('threads.prune', { olderThanDays: 20, dryRun: true });
    expect(preview).toEqual({ threads: 2, before: '2026-01-21T12:00:00.000Z', dryRun: true });
    expect((await host.invoke('threads.list', {})).threads).toHaveLength(3);

    expect(await host.invoke('threads.prune', { olderThanDays: 20 })).toMatchObject({
      threads: 2,
      dryRun: false,
    });
    const left = (await host.invoke('threads.list', {})).threads.map((thread) => thread.id);
    expect(left).toEqual([recent.threadId]);
    expect(rowsOf(fixture, old.threadId).runs + rowsOf(fixture, alsoOld.threadId).runs).toBe(0);
  });

  it('refuses a number of days it cannot use, over HTTP and the contract', async () => {
    const fixture = await open(new ScriptedModel());
    const api = await serve(fixture);
    for (const body of [{ olderThanDays: 0 }, { olderThanDays: 1.5 }, { olderThanDays: '30' }, {}]) {
      const response = await api('/api/data/prune', { method: 'POST', body: JSON.stringify(body) });
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    }
    const ok = await api('/api/data/prune', { method: 'POST', body: JSON.stringify({ olderThanDays: 30 }) });
    expect(await ok.json()).toMatchObject({ threads: 0, dryRun: false });
  });
});

describe('database size and compacting', () => {
  it('reports bytes and counts, and compacting after deleting gives space back', async () => {
    const model: ModelClient = {
      async *stream(request) {
        yield { type: 'text', text: `${lastPrompt(request)} — `.repeat(200) };
        yield { type: 'finish', finishReason: 'STOP', usage: null };
      },
    };
    const fixture = await open(model);
    const api = await serve(fixture);
    const { host } = fixture;
    const threadIds: string[] = [];
    for (let i = 0; i < 30; i += 1)
      threadIds.push((await host.runToEnd({ prompt: `Long answer ${i}` })).threadId);

    const stats = await (await api('/api/data')).json();
    expect(stats).toMatchObject({ counts: { threads: 30, runs: 30 } });
    expect(stats.totalBytes).toBe(stats.databaseBytes + stats.walBytes);
    expect(stats.databaseBytes).toBeGreaterThan(0);

    for (const threadId of threadIds) await host.invoke('thread.delete', { threadId });
    const compacted = await api('/api/data/compact', { method: 'POST' });
    expect(compacted.status).toBe(200);
    const { bytesBefore, bytesAfter } = await compacted.json();
    expect(bytesAfter).toBeLessThan(bytesBefore);
    const after = await host.invoke('data.stats', {});
    expect(after).toMatchObject({
      walBytes: 0,
      totalBytes: bytesAfter,
      counts: { threads: 0, runs: 0, events: 0 },
    });
  });
});
