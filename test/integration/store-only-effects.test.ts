import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DATABASE_FILE } from '../../electron/host/create-host';
import type { Tool } from '../../electron/tools/tool';
import { dieMidStep, storeOf, transient, until, waitForRun } from '../support/durable-kit';
import { openHost, type HostFixture } from '../support/host-fixture';
import { calls } from '../support/plan-kit';
import { call, say, ScriptedModel } from '../support/scripted-model';

let fixture: HostFixture | undefined;
const stopped: HostFixture[] = [];
afterEach(async () => {
  for (const old of stopped.splice(0)) await old.stop().catch(() => {});
  await fixture?.close();
  fixture = undefined;
});

/**
 * A side-effect tool that looks, from a connection of its own, at what the ledger has on disk for its call
 * while it runs: `isStoreOnly` or not.
 */
function peekingTool(name: string, isStoreOnly: boolean, seen: Map<string, string | null>): Tool {
  return {
    name,
    description: `Changes something (${isStoreOnly ? "in Deputy's own store" : 'outside'}).`,
    input: z.object({}).strict(),
    output: z.object({ done: z.boolean() }),
    category: 'update',
    risk: 'low',
    hasSideEffects: true,
    isStoreOnly,
    actionKind: 'task.create',
    execute: (_input, context) => {
      const db = new Database(join(fixture?.dataDir ?? '', DATABASE_FILE), { readonly: true });
      try {
        const row = db.prepare('SELECT state FROM actions WHERE id = ?').get(context.actionId) as
          { state: string } | undefined;
        seen.set(name, row?.state ?? null);
      } finally {
        db.close();
      }
      return { done: true };
    },
  };
}

const current = (): HostFixture => fixture as HostFixture;

/** The process dies here, with its step not committed. */
function dieHere(): Promise<never> {
  dieMidStep(current().host);
  return new Promise(() => {});
}

/**
 * A store-only tool that adds the task `<prefix>-<n>` to the task list (Deputy's own store), noting its id in
 * `written`; `before` runs ahead of the write, `after` once it is made.
 */
function taskWriter(
  name: string,
  prefix: string,
  written: string[],
  around: { before?: () => void; after?: () => Promise<void> } = {},
): Tool<{ text: string }> {
  return {
    name,
    description: 'Adds a task.',
    input: z.object({ text: z.string() }).strict(),
    output: z.object({ id: z.string() }),
    category: 'create',
    risk: 'low',
    hasSideEffects: true,
    isStoreOnly: true,
    actionKind: 'task.create',
    execute: async (input) => {
      around.before?.();
      const id = `${prefix}-${written.length + 1}`;
      storeOf(current().host).tasks.add({ id, description: input.text, due: null, notes: null }, 'now');
      written.push(id);
      await around.after?.();
      return { id };
    },
  };
}

/** What the restarted host keeps: exactly `ids` in the task list, and the tool's one call committed. */
async function expectKept(tool: string, ids: string[]): Promise<void> {
  const { tasks } = await current().host.invoke('tasks.list', { status: 'all' });
  expect(tasks.map((task) => task.id)).toEqual(ids);
  const actions = storeOf(current().host).db.prepare('SELECT state FROM actions WHERE tool = ?').all(tool);
  expect(actions).toEqual([{ state: 'committed' }]);
}

/** What the model says of a call it is sure of: with it, autonomous trust lets the call run without asking. */
const sure = {
  intent: 'Change what the person asked',
  reasoning: 'They asked for both.',
  confidence: 0.95,
  assumptions: [],
};

describe('side effects on Deputy’s own store', () => {
  it('commit with their ledger record, while an outside effect finds `started` on disk before it runs', async () => {
    const seen = new Map<string, string | null>();
    fixture = await openHost(
      new ScriptedModel(
        call('change_outside', sure, 'c-out'),
        call('change_store', sure, 'c-store'),
        say('Done.'),
      ),
      { tools: [peekingTool('change_outside', false, seen), peekingTool('change_store', true, seen)] },
    );
    await fixture.host.invoke('settings.set', { trustLevel: 'autonomous' });
    const result = await fixture.host.runToEnd({ prompt: 'Change both' });
    expect(result.status).toBe('completed');
    // Outside: the ledger says `started` on disk before the effect, so a crash during it is found and asked about.
    expect(seen.get('change_outside')).toBe('started');
    // Own store: nothing of the call is on disk yet; the effect and its record commit together.
    expect(seen.get('change_store')).toBeNull();
    const db = new Database(join(fixture.dataDir, DATABASE_FILE), { readonly: true });
    try {
      const states = db.prepare('SELECT tool, state FROM actions ORDER BY seq').all();
      expect(states).toEqual([
        { tool: 'change_outside', state: 'committed' },
        { tool: 'change_store', state: 'committed' },
      ]);
    } finally {
      db.close();
    }
  });

  it('lose the write and its record together in a crash before the step commits; the call is made once after', async () => {
    const written: string[] = [];
    let hangs = true;
    // The first time, Deputy dies right after the write, before the step commits (nothing is awaited in
    // between, so no turn of the event loop commits it either).
    const noteTask = taskWriter('note_task', 'note', written, {
      after: () => (hangs ? dieHere() : Promise.resolve()),
    });
    fixture = await openHost(new ScriptedModel(call('note_task', { text: 'Call Ana', ...sure }, 'c-note')), {
      tools: [noteTask],
    });
    await fixture.host.invoke('settings.set', { trustLevel: 'autonomous' });
    const { runId, threadId } = fixture.host.startRun({ prompt: 'Note: call Ana' });
    await until(() => written.length === 1);
    stopped.push(fixture);

    hangs = false;
    // After the restart the model is asked again (its answer was in the lost step) and calls once more.
    fixture = await openHost(
      new ScriptedModel(call('note_task', { text: 'Call Ana', ...sure }, 'c-note'), say('Noted.')),
      { tools: [noteTask], dataDir: stopped[0]?.dataDir ?? '' },
    );
    const run = await waitForRun(fixture.host, threadId, runId);
    expect(run.status).toBe('completed');
    expect(written).toEqual(['note-1', 'note-2']);
    // The first write went with the crash; only the second, with its record, is kept.
    await expectKept('note_task', ['note-2']);
  });

  it("commit their outcome at once when a retry's wait committed the step during the call", async () => {
    const written: string[] = [];
    let attempts = 0;
    let dies = true;
    // Fails once (the retry waits a turn of the event loop, which commits the step), then writes a task.
    const flakyNote = taskWriter('flaky_note', 'flaky', written, {
      before: () => {
        attempts += 1;
        if (attempts === 1) throw transient('busy for a moment');
      },
    });
    // The next call of the turn: the process dies there, before the step's next boundary.
    const die: Tool = {
      name: 'die',
      description: 'Looks something up.',
      input: z.object({}).strict(),
      output: z.object({ ok: z.boolean() }),
      category: 'query',
      risk: 'low',
      hasSideEffects: false,
      execute: async () => {
        if (dies) await dieHere();
        return { ok: true };
      },
    };
    const turnWait = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
    fixture = await openHost(
      new ScriptedModel(
        calls(['flaky_note', { text: 'Call Ana', ...sure }, 'c-flaky'], ['die', {}, 'c-die']),
      ),
      { tools: [flakyNote, die], sleep: turnWait },
    );
    await fixture.host.invoke('settings.set', { trustLevel: 'autonomous', maxParallel: 1 });
    const { runId, threadId } = fixture.host.startRun({ prompt: 'Note: call Ana' });
    await until(() => written.length === 1 && !storeOf(current().host).db.open);
    stopped.push(fixture);

    dies = false;
    fixture = await openHost(new ScriptedModel(say('Noted.')), {
      tools: [flakyNote, die],
      dataDir: stopped[0]?.dataDir ?? '',
      sleep: turnWait,
    });
    const run = await waitForRun(fixture.host, threadId, runId);
    // The outcome was on disk before the process died: the call is replayed from the ledger, not asked about.
    expect(run.status).toBe('completed');
    expect(written).toEqual(['flaky-1']);
    await expectKept('flaky_note', ['flaky-1']);
  });

  it('are the task tools and save_memory, and none of them reaches outside', async () => {
    fixture = await openHost(null);
    const { registry } = fixture.host.internalsForTests();
    const storeOnly = registry.list().filter((tool) => tool.isStoreOnly);
    expect(storeOnly.map((tool) => tool.name).sort()).toEqual([
      'add_task',
      'delete_task',
      'mark_task_complete',
      'save_memory',
      'update_task',
    ]);
    for (const tool of storeOnly) {
      expect(tool.hasSideEffects).toBe(true);
      expect(tool.isExternal ?? false).toBe(false);
      expect(tool.requires).toBeUndefined();
      expect(tool.mcpServer).toBeUndefined();
    }
  });
});
