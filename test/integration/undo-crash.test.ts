import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DEFAULT_AUTONOMY, type AutonomyLevel } from '../../shared/contract';
import type { Tool } from '../../electron/tools/tool';
import { openHost, type HostFixture } from '../support/host-fixture';
import { call, say, ScriptedModel } from '../support/scripted-model';

const ALL_AUTO = Object.fromEntries(Object.keys(DEFAULT_AUTONOMY).map((kind) => [kind, 'auto'])) as Record<
  keyof typeof DEFAULT_AUTONOMY,
  AutonomyLevel
>;

/** A note keeper outside the database, so what its undo did survives the host like a real service. */
function noteTool() {
  const notes = new Map<string, string>();
  const state = { undoCalls: 0, isEffectApplied: true, gate: Promise.resolve() };
  const tool: Tool<{ text: string }, { id: string }> = {
    name: 'save_note',
    description: 'Save a note.',
    input: z.object({ text: z.string() }).strict(),
    output: z.object({ id: z.string() }),
    category: 'create',
    risk: 'low',
    hasSideEffects: true,
    actionKind: 'task.create',
    execute: (input) => {
      const id = `note-${notes.size + 1}`;
      notes.set(id, input.text);
      return { id };
    },
    effect: (input, output) => ({
      entityType: 'note',
      entityId: output.id,
      before: null,
      after: { text: input.text },
    }),
    current: ({ entityId }) => {
      const text = entityId ? notes.get(entityId) : undefined;
      return text === undefined ? null : { text };
    },
    undo: async ({ output }) => {
      state.undoCalls += 1;
      if (state.isEffectApplied) notes.delete(String(output.id));
      // Deputy "crashes" here: the test closes the host before this returns, so nothing is committed.
      await state.gate;
      return { deleted: output.id };
    },
  };
  return { tool, notes, state };
}

const dirs: string[] = [];
const fixtures: HostFixture[] = [];
afterEach(async () => {
  for (const fixture of fixtures.splice(0)) await fixture.stop();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function start(dataDir: string, tool: Tool, model: ScriptedModel) {
  const fixture = await openHost(model, { dataDir, tools: [tool] });
  fixtures.push(fixture);
  return fixture;
}

/** Saves a note, then starts its undo and closes the host while the undo's effect is in flight. */
async function crashDuringUndo(isEffectApplied: boolean) {
  const dataDir = mkdtempSync(join(tmpdir(), 'deputy-undo-crash-'));
  dirs.push(dataDir);
  const notes = noteTool();
  const model = new ScriptedModel();
  const first = await start(dataDir, notes.tool as Tool, model);
  await first.host.invoke('settings.set', { trustLevel: 'autonomous', autonomy: ALL_AUTO });
  model.script(call('save_note', { text: 'Ask Ana', intent: 'keep a note', confidence: 0.9 }), say('Saved.'));
  const run = await first.host.runToEnd({ prompt: 'Note: ask Ana' });
  const [saved] = (await first.host.invoke('audit.list', { runId: run.runId, tool: 'save_note' })).entries;
  if (!saved) throw new Error('no entry');

  let release = (): void => {};
  notes.state.gate = new Promise((resolve) => (release = resolve));
  notes.state.isEffectApplied = isEffectApplied;
  const undoing = first.host.invoke('audit.undo', { id: saved.id });
  while (notes.state.undoCalls === 0) await new Promise((resolve) => setImmediate(resolve));
  fixtures.splice(fixtures.indexOf(first), 1);
  await first.stop();
  release();
  // The commit cannot land: the database is closed, as after a crash.
  await expect(undoing).rejects.toThrow();

  notes.state.gate = Promise.resolve();
  notes.state.isEffectApplied = true;
  const second = await start(dataDir, notes.tool as Tool, model);
  await second.host.audit.reconciling;
  return { host: second.host, saved, notes };
}

describe('an undo cut short by a crash', () => {
  it('is found done after a crash between its effect and its commit, and is never applied twice', async () => {
    const { host, saved, notes } = await crashDuringUndo(true);
    const original = (await host.invoke('audit.get', { id: saved.id })).entry;
    expect(original.status).toBe('rolled_back');
    expect((await host.invoke('audit.get', { id: original.undo.undoneBy ?? '' })).entry).toMatchObject({
      kind: 'undo',
      status: 'completed',
      output: { reconciled: true },
    });
    expect(notes.notes.has('note-1')).toBe(false);
    await expect(host.invoke('audit.undo', { id: saved.id })).rejects.toMatchObject({ code: 'conflict' });
    expect(notes.state.undoCalls).toBe(1);
    expect((await host.invoke('audit.verifyChain', {})).ok).toBe(true);
  });

  it('is found not done when the crash came before its effect; undoing again then works, once', async () => {
    const { host, saved, notes } = await crashDuringUndo(false);
    const attempts = (await host.invoke('audit.list', { tool: 'save_note' })).entries.filter(
      (entry) => entry.kind === 'undo',
    );
    expect(attempts).toMatchObject([
      { status: 'failed', errorMessage: expect.stringMatching(/nothing was undone/) },
    ]);
    expect((await host.invoke('audit.get', { id: saved.id })).entry.status).toBe('completed');
    expect(notes.notes.has('note-1')).toBe(true);

    const again = await host.invoke('audit.undo', { id: saved.id });
    expect(again.status).toBe('undone');
    expect(notes.notes.has('note-1')).toBe(false);
    expect(notes.state.undoCalls).toBe(2);
  });
});
