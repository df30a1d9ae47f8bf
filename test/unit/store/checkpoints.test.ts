import { rememberSecret } from '../../../electron/vault/redactor';
import { describe, expect, it } from 'vitest';
import {
  CheckpointError,
  CheckpointsRepo,
  type CheckpointInput,
} from '../../../electron/store/checkpoints-repo';
import { openDatabase } from '../../../electron/store/database';
import { Store } from '../../../electron/store/store';

function storeWithRuns(...runIds: string[]): Store {
  const store = new Store(openDatabase(':memory:'));
  store.threads.create('t', 'T', 'n');
  for (const id of runIds) store.runs.create({ id, threadId: 't', model: 'm', prompt: 'p' }, 'n');
  return store;
}

let nextId = 0;
const input = (
  state: Record<string, unknown>,
  overrides: Partial<CheckpointInput> = {},
): CheckpointInput => ({
  id: `cp${(nextId += 1)}`,
  runId: 'r',
  threadId: 't',
  timestamp: '2026-01-01T00:00:00.000Z',
  state,
  pending: [],
  completed: [],
  usageTokens: 0,
  usageCost: null,
  ...overrides,
});

const text = (value: string) => ({ role: 'user', parts: [{ kind: 'text', text: value }] });
/** Real states carry a system prompt and tool declarations; without some bulk every checkpoint is a snapshot. */
const instructions = 'Be brief. '.repeat(200);

describe('checkpoints', () => {
  it('loads exactly the last saved state through appends, changes, removed keys and shrinking arrays', () => {
    const store = storeWithRuns('r');
    const { checkpoints } = store;
    const first = text('hello');
    const states: Record<string, unknown>[] = [];
    states.push({
      version: 2,
      instructions,
      messages: [first],
      turn: 0,
      pending: ['c1'],
      usage: { input: 1 },
    });
    states.push({ ...states[0], messages: [first, text('two')], turn: 1 });
    states.push({
      version: 2,
      instructions,
      messages: [first, text('two')],
      turn: 1,
      summary: 'short',
      usage: { input: 9 },
    });
    states.push({ ...states[2], messages: [text('compacted'), text('three')] });
    states.push({ ...states[3], messages: [text('compacted')] });
    states.push({ ...states[4], messages: [text('compacted'), text('four')], gone: undefined });
    states.push({ ...states[5] });

    let lastWritten = '';
    const kinds = states.map((state) => {
      const saved = checkpoints.save(input(state));
      if (saved.bytes > 0) lastWritten = `cp${nextId}`;
      expect(checkpoints.load('r')).toEqual({
        id: lastWritten,
        step: saved.step,
        state: JSON.parse(JSON.stringify(state)),
      });
      return saved.kind;
    });
    expect(kinds[0]).toBe('snapshot');
    expect(kinds.slice(1).every((kind) => kind === 'delta')).toBe(true);

    const blobs = store.db
      .prepare("SELECT state_blob FROM checkpoints WHERE run_id = 'r' ORDER BY step")
      .pluck()
      .all() as string[];
    // An append writes only the new message; a removed key is named; an array with nothing in common with its
    // previous value is written whole; one that shares its start keeps it; a delta says only what changed.
    expect(JSON.parse(blobs[1] ?? '')).toEqual({
      set: { turn: 1 },
      arrays: { messages: { keep: 1, append: [text('two')] } },
    });
    expect(JSON.parse(blobs[2] ?? '')).toEqual({
      set: { summary: 'short', usage: { input: 9 } },
      removed: ['pending'],
    });
    expect(JSON.parse(blobs[3] ?? '')).toEqual({ set: { messages: [text('compacted'), text('three')] } });
    expect(JSON.parse(blobs[4] ?? '')).toEqual({ arrays: { messages: { keep: 1, append: [] } } });
    // The last save changed nothing: no row was written, the step before it stands.
    expect(blobs).toHaveLength(6);
  });

  it('records the tool calls and usage of each checkpoint, and redacts secrets from every column', () => {
    const store = storeWithRuns('r');
    // The vault's Slack token: a secret Deputy knows, taken out wherever it appears.
    const token = 'xoxb-1234567890-abcdefghijkl';
    rememberSecret(token);
    store.checkpoints.save(
      input(
        { messages: [text(`token ${token}`)] },
        {
          pending: [{ callId: 'c2', name: `slack_send ${token}` }],
          completed: [{ callId: 'c1', name: 'add_task' }],
          usageTokens: 120,
          usageCost: 0.25,
        },
      ),
    );
    store.checkpoints.save(input({ messages: [text(`token ${token}`), text(`again ${token}`)] }));
    const rows = store.db.prepare('SELECT * FROM checkpoints ORDER BY step').all() as Record<
      string,
      unknown
    >[];
    expect(JSON.stringify(rows)).not.toContain(token);
    expect(rows[0]).toMatchObject({
      run_id: 'r',
      thread_id: 't',
      kind: 'snapshot',
      base_step: null,
      completed_tools: JSON.stringify([{ callId: 'c1', name: 'add_task' }]),
      usage_tokens: 120,
      usage_cost: 0.25,
    });
    expect(JSON.parse(String(rows[0]?.pending_tools))).toEqual([
      { callId: 'c2', name: 'slack_send [redacted]' },
    ]);
    expect(rows[1]).toMatchObject({ kind: 'delta', base_step: 1 });
    expect(store.checkpoints.load('r')?.state).toEqual({
      messages: [text('token [redacted]'), text('again [redacted]')],
    });
  });

  it('keeps text that only looks like a token as written, so a resumed run sends what it would have', () => {
    const store = storeWithRuns('r');
    const body = 'Use header "Authorization: Bearer abc.def.ghi" and token=xoxp-0000-look-alike';
    store.checkpoints.save(input({ messages: [text(body)] }));
    expect(store.checkpoints.load('r')?.state).toEqual({ messages: [text(body)] });
  });

  it('starts with a snapshot in a fresh repo over the same database, and still loads the latest state', () => {
    const store = storeWithRuns('r');
    const first = text('one');
    store.checkpoints.save(input({ messages: [first] }));
    store.checkpoints.save(input({ messages: [first, text('two')] }));
    const restarted = new CheckpointsRepo(store.db);
    const state = { messages: [first, text('two'), text('three')], turn: 3 };
    expect(restarted.save(input(state))).toMatchObject({ step: 3, kind: 'snapshot' });
    expect(restarted.load('r')).toMatchObject({ step: 3, state });
    expect(restarted.save(input({ ...state, turn: 4 }))).toMatchObject({ step: 4, kind: 'delta' });
    expect(restarted.load('r')?.state).toEqual({ ...state, turn: 4 });
    // The new snapshot superseded the chain before it: steps 1 and 2 are gone, 3 and 4 remain.
    expect(restarted.stats('r')).toMatchObject({ count: 2, snapshots: 1 });
  });

  it('writes a snapshot instead of a delta whose base was rolled back or overtaken', () => {
    const store = storeWithRuns('r');
    const first = text('one');
    store.checkpoints.save(input({ messages: [first] }));
    expect(() =>
      store.transaction(() => {
        store.checkpoints.save(input({ messages: [first, text('lost')] }));
        throw new Error('the rest of the step failed');
      }),
    ).toThrow(/rest of the step/);
    const state = { messages: [first, text('kept')] };
    expect(store.checkpoints.save(input(state))).toMatchObject({ step: 2, kind: 'snapshot' });
    expect(store.checkpoints.load('r')?.state).toEqual(state);

    // Another writer (a second repo over the same file) saved after us: our next save must not chain onto ours.
    new CheckpointsRepo(store.db).save(input({ messages: [first, text('other')] }));
    expect(store.checkpoints.save(input({ messages: [first, text('kept'), text('more')] }))).toMatchObject({
      kind: 'snapshot',
    });
    expect(store.checkpoints.load('r')?.state).toEqual({ messages: [first, text('kept'), text('more')] });
  });

  it('writes a snapshot again once the deltas since the last one outgrow four times its size', () => {
    const store = storeWithRuns('r');
    const messages: unknown[] = [];
    const saved = Array.from({ length: 40 }, (_, index) => {
      messages.push(text(`${index} `.repeat(100)));
      return store.checkpoints.save(input({ instructions, messages: [...messages] }));
    });
    expect(saved[0]?.kind).toBe('snapshot');
    expect(saved.filter((entry) => entry.kind === 'snapshot').length).toBeGreaterThan(1);
    let snapshotBytes = 0;
    let deltaBytes = 0;
    for (const entry of saved) {
      if (entry.kind === 'snapshot') [snapshotBytes, deltaBytes] = [entry.bytes, 0];
      else deltaBytes += entry.bytes;
      expect(deltaBytes).toBeLessThanOrEqual(4 * snapshotBytes);
    }
    // What remains is the newest snapshot and the deltas after it: the older chains were pruned.
    const since = saved.slice(saved.map((entry) => entry.kind).lastIndexOf('snapshot'));
    expect(store.checkpoints.stats('r')).toMatchObject({
      count: since.length,
      snapshots: 1,
      bytes: since.reduce((sum, entry) => sum + entry.bytes, 0),
    });
    expect(store.checkpoints.load('r')?.state).toEqual({ instructions, messages });
  });

  it('prunes the chain a new snapshot supersedes, but keeps a checkpoint an artifact names', () => {
    const store = storeWithRuns('r');
    const first = text('one');
    const named = input({ messages: [first] });
    store.checkpoints.save(named);
    store.checkpoints.save(input({ messages: [first, text('two')] }));
    store.db
      .prepare(
        `INSERT INTO artifacts (id, run_id, agent_id, source_run_id, checkpoint_id, artifact_type, path, content,
         metadata, created_at) VALUES ('a1', 'r', 'deputy', NULL, ?, 'report', NULL, 'x', '{}', 'n')`,
      )
      .run(named.id);
    const state = { messages: [first, text('two'), text('three')] };
    expect(new CheckpointsRepo(store.db).save(input(state))).toMatchObject({ step: 3, kind: 'snapshot' });
    const steps = store.db
      .prepare<[], { step: number }>("SELECT step FROM checkpoints WHERE run_id = 'r' ORDER BY step")
      .all()
      .map((row) => row.step);
    expect(steps).toEqual([1, 3]);
    expect(store.checkpoints.load('r')).toMatchObject({ step: 3, state });
  });

  it('forgets a run on request, so its next checkpoint is a snapshot', () => {
    const store = storeWithRuns('r');
    store.checkpoints.save(input({ instructions, turn: 1 }));
    expect(store.checkpoints.save(input({ instructions, turn: 2 })).kind).toBe('delta');
    store.checkpoints.forget('r');
    expect(store.checkpoints.save(input({ instructions, turn: 3 })).kind).toBe('snapshot');
  });

  it('numbers steps per thread across its runs, each run chaining only its own checkpoints', () => {
    const store = storeWithRuns('r1', 'r2');
    const save = (runId: string, turn: number) => store.checkpoints.save(input({ turn }, { runId }));
    expect(
      [save('r1', 1), save('r1', 2), save('r2', 1), save('r1', 3), save('r2', 2)].map((s) => s.step),
    ).toEqual([1, 2, 3, 4, 5]);
    expect(store.checkpoints.load('r1')).toMatchObject({ step: 4, state: { turn: 3 } });
    expect(store.checkpoints.load('r2')).toMatchObject({ step: 5, state: { turn: 2 } });
    expect(store.checkpoints.load('none')).toBeNull();
    expect(store.checkpoints.stats('none')).toEqual({ count: 0, snapshots: 0, bytes: 0 });
    expect(() =>
      store.db
        .prepare(
          "INSERT INTO checkpoints (id, thread_id, run_id, step, timestamp, kind, state_blob) VALUES ('x', 't', 'r1', 3, 'n', 'snapshot', '{}')",
        )
        .run(),
    ).toThrow(/UNIQUE/);
  });

  describe('a broken chain', () => {
    function savedThree(): Store {
      const store = storeWithRuns('r');
      const first = text('one');
      store.checkpoints.save(input({ instructions, messages: [first], turn: 1 }));
      store.checkpoints.save(input({ instructions, messages: [first, text('two')], turn: 2 }));
      store.checkpoints.save(input({ instructions, messages: [first, text('two'), text('three')], turn: 3 }));
      expect(store.checkpoints.stats('r')).toMatchObject({ count: 3, snapshots: 1 });
      return store;
    }

    it('fails with a CheckpointError when a delta in the middle is missing', () => {
      const store = savedThree();
      store.db.prepare('DELETE FROM checkpoints WHERE step = 2').run();
      expect(() => store.checkpoints.load('r')).toThrow(CheckpointError);
      expect(() => store.checkpoints.load('r')).toThrow(
        /step 3 of run r applies to step 2, but the checkpoint before it is step 1/,
      );
    });

    it('fails with a CheckpointError when a blob does not parse or is not a delta', () => {
      const store = savedThree();
      store.db.prepare("UPDATE checkpoints SET state_blob = '{broken' WHERE step = 3").run();
      expect(() => store.checkpoints.load('r')).toThrow(/step 3 of run r is not readable JSON/);
      store.db.prepare("UPDATE checkpoints SET state_blob = '[1]' WHERE step = 3").run();
      expect(() => store.checkpoints.load('r')).toThrow(/step 3 of run r is not a readable delta/);
      store.db.prepare(`UPDATE checkpoints SET state_blob = '"text"' WHERE step = 1`).run();
      expect(() => store.checkpoints.load('r')).toThrow(/step 1 of run r does not hold a state/);
    });

    it('fails with a CheckpointError when a delta keeps more than its base has', () => {
      const store = savedThree();
      const blob = JSON.stringify({ set: {}, arrays: { messages: { keep: 9, append: [] } }, removed: [] });
      store.db.prepare('UPDATE checkpoints SET state_blob = ? WHERE step = 3').run(blob);
      expect(() => store.checkpoints.load('r')).toThrow(/keeps 9 items of "messages"/);
    });

    it('fails with a CheckpointError when the run has no snapshot left', () => {
      const store = savedThree();
      store.db.prepare("DELETE FROM checkpoints WHERE kind = 'snapshot'").run();
      let error: unknown;
      try {
        store.checkpoints.load('r');
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(CheckpointError);
      expect(error).toMatchObject({
        runId: 'r',
        step: 3,
        message: expect.stringMatching(/no snapshot/) as unknown,
      });
    });
  });

  it('keeps a 200-step tool loop within 3x the size of its final state', () => {
    const store = storeWithRuns('r');
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const messages: unknown[] = [text('Sort out my inbox and tell me what matters.')];
    let state: Record<string, unknown> = {
      version: 2,
      messages: [...messages],
      turn: 0,
      usage: { inputTokens: 0, outputTokens: 0 },
      pending: [],
    };
    for (let step = 1; step <= 200; step += 1) {
      const callId = `call-${step}`;
      const call = {
        role: 'model',
        parts: [{ kind: 'call', callId, name: 'gmail_search', args: { query: `q${step}` } }],
      };
      messages.push(call);
      state = { ...state, messages: [...messages], turn: step, pending: [{ callId, name: 'gmail_search' }] };
      store.checkpoints.save(input(state));

      const size = 1000 + Math.floor(random() * 2000);
      const body = Array.from({ length: size }, () =>
        String.fromCharCode(97 + Math.floor(random() * 26)),
      ).join('');
      messages.push({
        role: 'user',
        parts: [{ kind: 'result', callId, name: 'gmail_search', result: { body } }],
      });
      state = { ...state, messages: [...messages], pending: [] };
      store.checkpoints.save(input(state));

      state = { ...state, usage: { inputTokens: step * 900, outputTokens: step * 40 } };
      store.checkpoints.save(input(state, { usageTokens: step * 940 }));
    }

    const finalBytes = Buffer.byteLength(JSON.stringify(state));
    const stats = store.checkpoints.stats('r');
    expect(stats.snapshots).toBe(1);
    expect(stats.bytes).toBeLessThanOrEqual(2 * finalBytes);
    expect(store.checkpoints.load('r')).toMatchObject({ step: 600, state });
  });
});
