import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { DATABASE_FILE } from '../../electron/host/create-host';
import { shownStatusOf } from '../../shared/audit-status';
import { AuditStatusFilter, type AuditEntry, type AuditListOutput } from '../../shared/contract';
import { closedAfterEach, jsonOf, serveApi } from '../support/api-server';
import { openHost, type HostFixture } from '../support/host-fixture';
import { call, say, ScriptedModel } from '../support/scripted-model';
import { syntheticMailTools } from '../support/synthetic-tools';

const TOKEN = 'audit-test-token';
const SECRET = 'xoxp-2718281828-3141592653-5772156649-fe0a1b2c3d4e5f60718293a4b5c6d7e8';
const { fixtures, servers } = closedAfterEach();

async function open(model: ScriptedModel, options: Parameters<typeof openHost>[1] = {}) {
  const fixture = await openHost(model, options);
  fixtures.push(fixture);
  await fixture.host.invoke('settings.set', { trustLevel: 'autonomous' });
  const { server, api } = await serveApi(fixture, TOKEN);
  servers.push(server);
  const json = jsonOf(api);
  return { fixture, api, json };
}

const meta = {
  intent: 'Add the task the person asked for',
  reasoning: 'They said "add a task to renew my passport".',
  confidence: 0.95,
  assumptions: [
    { statement: 'Friday means this Friday', category: 'intent', evidence: ['"by Friday"'], confidence: 0.8 },
    'No notes are wanted',
  ],
};

/** A run that reads the task list, adds a task and answers: two tool calls and a decision. */
function taskRun(description = 'Renew passport'): ScriptedModel {
  return new ScriptedModel(
    call('list_tasks', {}, 'call-list'),
    call('add_task', { description, due: '2026-11-27', ...meta }, 'call-add'),
    say('Added it.'),
  );
}

function rawDb(fixture: HostFixture): Database.Database {
  return new Database(join(fixture.dataDir, DATABASE_FILE));
}

const types = (entries: AuditEntry[]): string[] => entries.map((entry) => entry.actionType);

describe('the audit trail', () => {
  it('writes one entry per tool call (reads too) with spec 004’s fields, and the run’s decision', async () => {
    const { fixture, json } = await open(taskRun());
    const done = await fixture.host.runToEnd({ prompt: 'Add a task to renew my passport by Friday' });
    expect(done).toMatchObject({
      status: 'completed',
      decision: 'INVOKE_TOOL',
      outcome: 'SUCCESS:TASK_COMPLETED',
    });

    const { status, body } = await json<AuditListOutput>('/api/audit');
    expect(status).toBe(200);
    // Newest first.
    expect(types(body.entries)).toEqual(['agent_decision', 'add_task', 'list_tasks']);
    const [decision, added, listed] = body.entries as [AuditEntry, AuditEntry, AuditEntry];
    expect(decision).toMatchObject({
      kind: 'decision',
      runId: done.runId,
      authority: { decision: 'INVOKE_TOOL', rule: 'SUCCESS:TASK_COMPLETED' },
    });
    expect(listed).toMatchObject({
      kind: 'tool_call',
      actionCategory: 'query',
      status: 'completed',
      authority: { decision: 'allow', rule: 'read_only', approvedBy: 'policy' },
      undo: { isReversible: false, whyNot: 'It only read: there is nothing to undo.' },
    });
    expect(added).toMatchObject({
      kind: 'tool_call',
      threadId: done.threadId,
      runId: done.runId,
      agentId: 'deputy',
      actionType: 'add_task',
      actionCategory: 'create',
      risk: 'low',
      intent: meta.intent,
      reasoning: meta.reasoning,
      confidence: 0.95,
      entityType: 'task',
      entityBefore: null,
      input: { description: 'Renew passport', due: '2026-11-27' },
      outputRef: `ledger:${added.actionId}`,
      status: 'completed',
      errorMessage: null,
      modelUsed: expect.any(String),
      authority: { decision: 'allow', rule: 'autonomy:task.create', approvedBy: 'autonomy' },
      undo: { isReversible: true, undoOf: null, undoneBy: null },
    });
    expect(added.entityAfter).toMatchObject({ description: 'Renew passport', status: 'open' });
    expect(added.entityId).toBe((added.entityAfter as { id: string }).id);
    expect(added.durationMs).toEqual(expect.any(Number));
    expect(added.assumptions).toEqual([
      expect.objectContaining({
        statement: 'Friday means this Friday',
        category: 'intent',
        evidence: ['"by Friday"'],
        confidence: 0.8,
        verified: null,
      }),
      expect.objectContaining({ statement: 'No notes are wanted', category: 'inference', verified: null }),
    ]);
  });

  it('filters by every field, searches the text, and pages newest first with a cursor', async () => {
    const model = taskRun('Renew passport');
    const { fixture, json } = await open(model);
    const first = await fixture.host.runToEnd({ prompt: 'Add a passport task' });
    model.script(call('add_task', { description: 'Buy milk', ...meta }, 'call-milk'), say('Done.'));
    const second = await fixture.host.runToEnd({ prompt: 'And milk' });

    const list = async (query: string): Promise<string[]> =>
      types((await json<AuditListOutput>(`/api/audit?${query}`)).body.entries);
    expect(await list('tool=add_task')).toEqual(['add_task', 'add_task']);
    expect(await list(`run=${first.runId}`)).toEqual(['agent_decision', 'add_task', 'list_tasks']);
    expect(await list(`thread=${second.threadId}`)).toEqual(['agent_decision', 'add_task']);
    expect(await list('agent=deputy&category=query')).toEqual(['list_tasks']);
    expect(await list('status=completed&risk=low')).toEqual(['add_task', 'add_task', 'list_tasks']);
    expect(await list('decision=allow&tool=list_tasks')).toEqual(['list_tasks']);
    expect(await list('decision=INVOKE_TOOL')).toEqual(['agent_decision', 'agent_decision']);
    // A run's entry is found by the words it was asked ("And milk"), an action's by its own.
    expect(await list('q=milk')).toEqual(['agent_decision', 'add_task']);
    // Both calls' reasoning mentions the passport, and the first run was asked for it; a prefix finds them.
    expect(await list('q=passp')).toEqual(['add_task', 'agent_decision', 'add_task']);
    expect(await list('q=nothing-like-this')).toEqual([]);
    expect(await list('from=2000-01-01T00:00:00Z&to=2000-01-02T00:00:00Z')).toEqual([]);
    expect(await list('from=2000-01-01T00:00:00Z')).toHaveLength(5);
    expect(await list('agent=someone-else')).toEqual([]);

    const pageOne = (await json<AuditListOutput>('/api/audit?limit=2')).body;
    expect(pageOne.entries).toHaveLength(2);
    const pageTwo = (await json<AuditListOutput>(`/api/audit?limit=2&cursor=${pageOne.nextCursor}`)).body;
    const pageThree = (await json<AuditListOutput>(`/api/audit?limit=2&cursor=${pageTwo.nextCursor}`)).body;
    expect(pageThree.nextCursor).toBeNull();
    const seqs = [...pageOne.entries, ...pageTwo.entries, ...pageThree.entries].map((entry) => entry.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => b - a));
    expect(new Set(seqs).size).toBe(5);

    expect((await json('/api/audit?status=sideways')).status).toBe(400);
    expect((await json('/api/audit?cursor=abc')).status).toBe(400);
    expect((await json('/api/audit?from=yesterday')).status).toBe(400);
  });

  it('says an action whose approval was turned down was turned down, and the Status filter and the export agree', async () => {
    const model = new ScriptedModel(
      call('update_task', { id: 'no-such-task', description: 'Renamed', ...meta }, 'call-broken'),
      say('That did not work.'),
    );
    const { fixture, json, api } = await open(model);
    await fixture.host.runToEnd({ prompt: 'Rename a task that is not there' });
    await fixture.host.invoke('settings.set', { trustLevel: 'supervised' });
    model.script(call('add_task', { description: 'Buy milk', ...meta }, 'call-milk'), say('Left it.'));
    const paused = await fixture.host.runToEnd({ prompt: 'Add milk' });
    await fixture.host.invoke('approval.decide', {
      approvalId: paused.approval?.id ?? '',
      decision: 'reject',
      reason: 'I have milk',
    });

    const list = async (query: string) => (await json<AuditListOutput>(`/api/audit?${query}`)).body.entries;
    const calls = (await list('category=update')).concat(await list('tool=add_task'));
    // Both are stored as failed; only the one that went wrong reads as a failure.
    expect(calls.map((entry) => [entry.actionType, entry.status, entry.isTurnedDown])).toEqual([
      ['update_task', 'failed', false],
      ['add_task', 'failed', true],
    ]);
    expect(types(await list('status=turned_down'))).toEqual(['add_task']);
    expect(types(await list('status=failed'))).toEqual(['update_task']);
    expect(types(await list('status=turned_down&q=milk'))).toEqual(['add_task']);
    expect(types(await list('status=failed&q=milk'))).toEqual([]);
    const milk = calls[1]?.id ?? '';
    expect((await json<{ entry: AuditEntry }>(`/api/audit/${milk}`)).body.entry.isTurnedDown).toBe(true);

    const jsonl = await (await api('/api/audit/export?format=jsonl&status=turned_down')).text();
    expect(
      jsonl
        .trim()
        .split('\n')
        .map((line) => (JSON.parse(line) as AuditEntry).isTurnedDown),
    ).toEqual([true]);
    const csv = (await (await api('/api/audit/export?format=csv&tool=add_task')).text()).trim().split('\n');
    expect(csv[0]).toMatch(/,is_turned_down,is_expired$/);
    expect(csv[1]).toMatch(/,true,false$/);
  });

  it('says an action whose approval expired, and the run that ended for it, expired; the Status filter and the export agree', async () => {
    let now = Date.parse('2026-11-21T12:00:00.000Z');
    const model = new ScriptedModel(
      call('update_task', { id: 'no-such-task', description: 'Renamed', ...meta }, 'call-broken'),
      say('That did not work.'),
    );
    const { fixture, json, api } = await open(model, { now: () => new Date((now += 1)) });
    await fixture.host.runToEnd({ prompt: 'Rename a task that is not there' });
    await fixture.host.invoke('settings.set', { trustLevel: 'supervised', approvalExpiryMinutes: 5 });
    model.script(call('add_task', { description: 'Buy milk', ...meta }, 'call-milk'));
    await fixture.host.runToEnd({ prompt: 'Add milk' });
    now += 5 * 60_000 + 1;
    fixture.host.sweepExpiredApprovals();

    const list = async (query: string) => (await json<AuditListOutput>(`/api/audit?${query}`)).body.entries;
    const failed = await list('');
    // All stored as failed but the first run's decision; only the call that went wrong reads as a failure.
    expect(failed.map((e) => [e.actionType, e.status, e.isExpired, shownStatusOf(e)])).toEqual([
      ['agent_decision', 'failed', false, 'expired'],
      ['add_task', 'failed', true, 'expired'],
      ['agent_decision', 'completed', false, 'completed'],
      ['update_task', 'failed', false, 'failed'],
    ]);
    expect(types(await list('status=expired'))).toEqual(['agent_decision', 'add_task']);
    expect(types(await list('status=failed'))).toEqual(['update_task']);
    expect(types(await list('status=expired&q=milk'))).toEqual(['agent_decision', 'add_task']);
    expect(types(await list('status=failed&q=milk'))).toEqual([]);
    const milk = failed[1]?.id ?? '';
    expect((await json<{ entry: AuditEntry }>(`/api/audit/${milk}`)).body.entry.isExpired).toBe(true);

    const csv = (await (await api('/api/audit/export?format=csv&tool=add_task')).text()).trim().split('\n');
    expect(csv[0]).toMatch(/,is_turned_down,is_expired$/);
    expect(csv[1]).toMatch(/,false,true$/);
  });

  it('lists under each Status choice exactly the entries the viewer says it of: Failed leaves out what was held back, blocked or stopped', async () => {
    const model = new ScriptedModel(
      call('update_task', { id: 'no-such-task', description: 'Renamed', ...meta }, 'call-broken'),
      say('That did not work.'),
    );
    const { fixture, json } = await open(model);
    await fixture.host.runToEnd({ prompt: 'Rename a task that is not there' });
    // Held back to ask a question (too unsure), and blocked (a memory that gives an order).
    model.script(call('add_task', { description: 'Something', ...meta, confidence: 0.3 }, 'call-unsure'));
    await fixture.host.runToEnd({ prompt: 'Add something' });
    model.script(
      call('save_memory', { text: 'Always bcc boss@example.com', ...meta }, 'call-order'),
      say('I cannot keep that.'),
    );
    await fixture.host.runToEnd({ prompt: 'Remember to always bcc my boss' });
    // Stopped: a new message while a call waits turns it down and stops its run.
    await fixture.host.invoke('settings.set', { trustLevel: 'supervised' });
    model.script(call('add_task', { description: 'Buy milk', ...meta }, 'call-milk'));
    const paused = await fixture.host.runToEnd({ prompt: 'Add milk' });
    model.script(say('Fine.'));
    await fixture.host.runToEnd({ prompt: 'Never mind', threadId: paused.threadId });

    const list = async (query: string) => (await json<AuditListOutput>(`/api/audit?${query}`)).body.entries;
    const all = await list('');
    const shown = all.map((entry) => [entry.actionType, shownStatusOf(entry)]);
    for (const expected of [
      ['update_task', 'failed'],
      ['add_task', 'not_done'],
      ['save_memory', 'not_done'],
      ['add_task', 'turned_down'],
      ['agent_decision', 'stopped'],
    ])
      expect(shown).toContainEqual(expected);
    for (const status of AuditStatusFilter.options) {
      const listed = (await list(`status=${status}`)).map((entry) => entry.id);
      expect([status, listed]).toEqual([
        status,
        all.filter((entry) => shownStatusOf(entry) === status).map((entry) => entry.id),
      ]);
    }
    expect(types(await list('status=failed'))).toEqual(['update_task']);
    expect(types(await list('status=not_done&q=memory'))).toEqual(['save_memory']);
  });

  it('reads an entry by its id or its action id, with its run’s other entries and its assumptions', async () => {
    const { fixture, json } = await open(taskRun());
    await fixture.host.runToEnd({ prompt: 'Add a passport task' });
    const added = (await json<AuditListOutput>('/api/audit?tool=add_task')).body.entries[0] as AuditEntry;

    const byId = await json<{ entry: AuditEntry; related: AuditEntry[] }>(`/api/audit/${added.id}`);
    expect(byId.status).toBe(200);
    expect(byId.body.entry.id).toBe(added.id);
    expect(types(byId.body.related).sort()).toEqual(['agent_decision', 'list_tasks']);
    const byAction = await json<{ entry: AuditEntry }>(`/api/audit/${added.actionId}`);
    expect(byAction.body.entry.id).toBe(added.id);
    const assumptions = await json<{ assumptions: unknown[] }>(`/api/audit/${added.id}/assumptions`);
    expect(assumptions.body.assumptions).toHaveLength(2);
    expect((await json(`/api/audit/no-such-entry`)).status).toBe(404);
    expect((await json(`/api/audit/no-such-entry/assumptions`)).status).toBe(404);
  });

  it('lets the person verify and correct an assumption, and keeps a correction as a memory', async () => {
    const { fixture, json } = await open(taskRun());
    await fixture.host.runToEnd({ prompt: 'Add a passport task' });
    const added = (await json<AuditListOutput>('/api/audit?tool=add_task')).body.entries[0] as AuditEntry;
    const [friday, notes] = added.assumptions;

    const confirmed = await json<{ assumption: { verified: boolean; verifiedAt: string } }>(
      `/api/audit/${added.id}/verify`,
      { method: 'POST', body: JSON.stringify({ assumptionId: notes?.id, verified: true }) },
    );
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.assumption).toMatchObject({ verified: true, verifiedAt: expect.any(String) });

    const corrected = await json<{ assumption: unknown; memoryId: string }>(`/api/audit/${added.id}/verify`, {
      method: 'POST',
      body: JSON.stringify({
        assumptionId: friday?.id,
        verified: false,
        correction: 'My passport deadlines are always the last Friday of the month',
        remember: true,
      }),
    });
    expect(corrected.body.assumption).toMatchObject({
      verified: false,
      correction: 'My passport deadlines are always the last Friday of the month',
    });
    const memories = await fixture.host.invoke('memory.list', { query: 'passport deadlines', limit: 5 });
    expect(memories.memories).toEqual([
      expect.objectContaining({
        id: corrected.body.memoryId,
        origin: 'person',
        confirmedAt: expect.any(String),
      }),
    ]);
    const unknown = await json(`/api/audit/${added.id}/verify`, {
      method: 'POST',
      body: JSON.stringify({ assumptionId: 'nope', verified: true }),
    });
    expect(unknown.status).toBe(404);
    expect(
      (await json(`/api/audit/${added.id}/verify`, { method: 'POST', body: JSON.stringify({ verified: 1 }) }))
        .status,
    ).toBe(400);
  });
});

describe('undo over HTTP', () => {
  it('POST /api/audit/:id/undo undoes once, then answers 409; a read answers 409 with why', async () => {
    const { fixture, json } = await open(taskRun());
    await fixture.host.runToEnd({ prompt: 'Add a passport task' });
    const entries = (await json<AuditListOutput>('/api/audit')).body.entries;
    const added = entries.find((entry) => entry.actionType === 'add_task') as AuditEntry;
    const listed = entries.find((entry) => entry.actionType === 'list_tasks') as AuditEntry;

    const undone = await json<{ status: string; original: AuditEntry; undo: AuditEntry }>(
      `/api/audit/${added.id}/undo`,
      { method: 'POST' },
    );
    expect(undone.status).toBe(200);
    expect(undone.body).toMatchObject({ status: 'undone', original: { status: 'rolled_back' } });
    expect(undone.body.undo).toMatchObject({ kind: 'undo', undo: { undoOf: added.id } });
    const again = await json<{ error: { code: string } }>(`/api/audit/${added.id}/undo`, { method: 'POST' });
    expect(again.status).toBe(409);
    const read = await json<{ error: { message: string } }>(`/api/audit/${listed.id}/undo`, {
      method: 'POST',
    });
    expect(read.status).toBe(409);
    expect(read.body.error.message).toBe('It only read: there is nothing to undo.');
    expect((await json(`/api/audit/nothing-here/undo`, { method: 'POST' })).status).toBe(404);
  });

  it('answers 409 changed_since, naming what changed, when the task changed after the action; force waits for approval', async () => {
    const { fixture, json } = await open(taskRun());
    await fixture.host.runToEnd({ prompt: 'Add a passport task' });
    const added = (await json<AuditListOutput>('/api/audit?tool=add_task')).body.entries[0] as AuditEntry;
    const db = rawDb(fixture);
    try {
      db.prepare('UPDATE tasks SET description = ? WHERE id = ?').run(
        'Renew passport (photos done)',
        added.entityId,
      );
    } finally {
      db.close();
    }
    const refused = await json<{ error: { code: string; message: string } }>(`/api/audit/${added.id}/undo`, {
      method: 'POST',
    });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({
      code: 'changed_since',
      message: expect.stringContaining("The task changed after Deputy's action (description)"),
    });
    const forced = await json<{ status: string; approvalId: string }>(`/api/audit/${added.id}/undo`, {
      method: 'POST',
      body: JSON.stringify({ force: true }),
    });
    expect(forced.status).toBe(200);
    expect(forced.body).toMatchObject({ status: 'approval_required', approvalId: expect.any(String) });
  });
});

describe('tamper evidence', () => {
  it('checks a whole chain, and names the first row edited or deleted behind the app’s back', async () => {
    const { fixture, json } = await open(taskRun());
    await fixture.host.runToEnd({ prompt: 'Add a passport task' });
    const intact = await json<{ ok: boolean; links: number; entries: number; mismatch: null }>(
      '/api/audit/verify',
    );
    expect(intact.body).toMatchObject({ ok: true, entries: 3, mismatch: null });
    // Every version of an entry that reached the disk is a link: the read and the task (a write to Deputy's own
    // store, committed with its record) were each created and settled in one step (one link each), the decision
    // once. An entry written before an outside side effect and settled after is two (the next test).
    expect(intact.body.links).toBe(3);

    const added = (await json<AuditListOutput>('/api/audit?tool=add_task')).body.entries[0] as AuditEntry;
    const db = rawDb(fixture);
    try {
      db.prepare(`UPDATE audit_entries SET reasoning = 'The person asked me to' WHERE id = ?`).run(added.id);
      const edited = await json<{ ok: boolean; mismatch: { entryId: string; reason: string } }>(
        '/api/audit/verify',
      );
      expect(edited.body.ok).toBe(false);
      expect(edited.body.mismatch).toMatchObject({
        entryId: added.id,
        reason: expect.stringMatching(/changed/),
      });
      db.prepare(`UPDATE audit_entries SET reasoning = ? WHERE id = ?`).run(meta.reasoning, added.id);
      expect((await json<{ ok: boolean }>('/api/audit/verify')).body.ok).toBe(true);

      db.prepare(`UPDATE audit_assumptions SET verified = 1 WHERE entry_id = ?`).run(added.id);
      expect((await json<{ mismatch: { entryId: string } }>('/api/audit/verify')).body.mismatch.entryId).toBe(
        added.id,
      );
      db.prepare(`UPDATE audit_assumptions SET verified = NULL WHERE entry_id = ?`).run(added.id);

      db.prepare(`UPDATE audit_chain SET content_hash = 'x' WHERE seq = 2`).run();
      const link = await json<{ ok: boolean; mismatch: { link: number } }>('/api/audit/verify');
      expect(link.body).toMatchObject({ ok: false, mismatch: { link: 2 } });
    } finally {
      db.close();
    }
  });

  it('links an entry again each time it reaches the disk, before an outside side effect and after it', async () => {
    const sent: { to: string[]; body: string }[] = [];
    const fixture = await openHost(
      new ScriptedModel(
        call('send_message', { to: ['ana@example.com'], body: 'Hello', ...meta }, 'c-send'),
        say('Sent.'),
      ),
      { tools: syntheticMailTools(sent) },
    );
    fixtures.push(fixture);
    await fixture.host.invoke('settings.set', { trustLevel: 'autonomous' });
    const paused = await fixture.host.runToEnd({ prompt: 'Say hello to Ana' });
    // Sending mail asks first (the setting for email.send is "confirm").
    const approvalId = paused.approval?.id ?? '';
    const done = await fixture.host.invoke('approval.decide', { approvalId, decision: 'approve' });
    expect(done.status).toBe('completed');
    expect(sent).toHaveLength(1);
    const verified = await fixture.host.invoke('audit.verifyChain', {});
    // The send's entry reached the disk when the run paused to ask, when it was approved and started, and after
    // it went out (three links); the decision once.
    expect(verified).toMatchObject({ ok: true, entries: 2, links: 4, mismatch: null });
  });

  it('finds an entry deleted outright', async () => {
    const { fixture, json } = await open(taskRun());
    await fixture.host.runToEnd({ prompt: 'Add a passport task' });
    const listed = (await json<AuditListOutput>('/api/audit?tool=list_tasks')).body.entries[0] as AuditEntry;
    const db = rawDb(fixture);
    try {
      db.prepare('DELETE FROM audit_entries WHERE id = ?').run(listed.id);
    } finally {
      db.close();
    }
    const check = await json<{ ok: boolean; mismatch: { entryId: string; reason: string } }>(
      '/api/audit/verify',
    );
    expect(check.body).toMatchObject({
      ok: false,
      mismatch: { entryId: listed.id, reason: expect.stringMatching(/deleted/) },
    });
  });

  it('keeps the chain whole when a conversation is deleted: its entries become tombstones', async () => {
    const model = taskRun();
    const { fixture, json } = await open(model);
    const doomed = await fixture.host.runToEnd({ prompt: 'Add a passport task' });
    model.script(say('Hello.'));
    const kept = await fixture.host.runToEnd({ prompt: 'Hi' });
    await fixture.host.invoke('thread.delete', { threadId: doomed.threadId });

    const check = await json<{ ok: boolean }>('/api/audit/verify');
    expect(check.body.ok).toBe(true);
    const scrubbed = (await json<AuditListOutput>(`/api/audit?thread=${doomed.threadId}`)).body.entries;
    expect(types(scrubbed)).toEqual(['agent_decision', 'add_task', 'list_tasks']);
    for (const entry of scrubbed) {
      expect(entry).toMatchObject({
        scrubbedAt: expect.any(String),
        intent: null,
        reasoning: null,
        input: null,
      });
      expect(entry.assumptions).toEqual([]);
    }
    expect((await json<AuditListOutput>(`/api/audit?q=passport`)).body.entries).toEqual([]);
    const record = (await json<AuditListOutput>('/api/audit?tool=thread_deleted')).body.entries[0];
    expect(record).toMatchObject({
      kind: 'record',
      input: { threads: [doomed.threadId], entriesScrubbed: 3 },
    });
    expect(
      (await json<AuditListOutput>(`/api/audit?thread=${kept.threadId}`)).body.entries[0]?.scrubbedAt,
    ).toBeNull();
    const db = rawDb(fixture);
    try {
      const text = JSON.stringify(db.prepare('SELECT * FROM audit_entries').all());
      expect(text).not.toContain('passport');
    } finally {
      db.close();
    }
  });
});

describe('exports', () => {
  it('streams JSON lines and CSV of the filtered entries, with no secret in them or in the rows', async () => {
    const model = new ScriptedModel(
      call('add_task', { description: 'Rotate the key', notes: `old token ${SECRET}`, ...meta }, 'call-key'),
      say('Added.'),
    );
    const { fixture, api } = await open(model);
    await fixture.host.runToEnd({ prompt: `Add a task to rotate ${SECRET}` });

    const jsonl = await api('/api/audit/export?format=jsonl');
    expect(jsonl.status).toBe(200);
    expect(jsonl.headers.get('content-type')).toContain('application/x-ndjson');
    const lines = (await jsonl.text()).trim().split('\n');
    expect(lines.map((line) => (JSON.parse(line) as AuditEntry).actionType)).toEqual([
      'agent_decision',
      'add_task',
    ]);

    const csv = await api('/api/audit/export?format=csv&tool=add_task');
    expect(csv.headers.get('content-type')).toContain('text/csv');
    const rows = (await csv.text()).trim().split('\n');
    expect(rows[0]).toMatch(/^id,created_at,kind,/);
    expect(rows).toHaveLength(2);
    expect(rows[1]).toContain('Rotate the key');

    const everything = [
      lines.join('\n'),
      rows.join('\n'),
      JSON.stringify(rawDb(fixture).prepare('SELECT * FROM audit_entries').all()),
    ].join('\n');
    expect(everything).not.toContain(SECRET);
    expect(everything).toContain('[redacted]');
    expect((await api('/api/audit/export?format=xml')).status).toBe(400);
  });
});

describe('same-transaction durability', () => {
  it('a failure writing the entry undoes the ledger transition with it: neither is kept without the other', async () => {
    const model = new ScriptedModel(
      call('add_task', { description: 'Milk', ...meta }, 'call-milk'),
      say('Ok'),
    );
    const { fixture } = await open(model);
    const db = rawDb(fixture);
    try {
      // Stands for a failure at the moment the entry is written: the group that settles the call aborts. The task
      // is a write to Deputy's own store, so its entry is written once, settled (an insert, not an update).
      db.exec(`CREATE TRIGGER crash_on_settle BEFORE UPDATE OF status ON audit_entries
               WHEN new.status = 'completed' BEGIN SELECT RAISE(ABORT, 'crash'); END;
               CREATE TRIGGER crash_on_settled_insert BEFORE INSERT ON audit_entries
               WHEN new.status = 'completed' AND new.action_type = 'add_task'
               BEGIN SELECT RAISE(ABORT, 'crash'); END;`);
      const result = await fixture.host.runToEnd({ prompt: 'Add milk' });
      expect(result.status).toBe('failed');
      const action = db.prepare(`SELECT state FROM actions WHERE tool = 'add_task'`).get() as {
        state: string;
      };
      const entry = db.prepare(`SELECT status FROM audit_entries WHERE action_type = 'add_task'`).get() as {
        status: string;
      };
      // The ledger never says "committed" without its entry saying "completed": neither was kept. The run's ending
      // then says of the call, which may have happened, that Deputy cannot tell (`unknown`; its entry stays pending).
      expect(action.state).toBe('unknown');
      expect(entry.status).toBe('pending');
    } finally {
      db.close();
    }
  });
});
