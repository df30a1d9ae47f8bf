import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseRunState } from '../../../electron/engine/run-state';
import { Store } from '../../../electron/store/store';

/**
 * A frozen database as Deputy left it at schema version 12 (made once, never rewritten): `lead` delegated to
 * `helper` and both completed (two lineage rows, two artifacts); `gated`, an agent with an SOP, is paused for
 * approval in its "act" phase. Lineage, artifacts and a checkpoint holding `sopPhase` are disk formats.
 */
const FIXTURE = join(import.meta.dirname, '..', '..', 'fixtures', 'databases', 'deputy-v12-agents.db');
const LEAD = '5d7176c2-6441-404a-95e5-fcd9b054981e';
const HELPER = 'aa2b6ec3-2b02-46c9-a1a8-cada5738f04e';
const GATED = '78185126-3baf-4fd0-bf4e-cf472c696124';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function openCopy(): Store {
  const dir = mkdtempSync(join(tmpdir(), 'deputy-v12-'));
  dirs.push(dir);
  const file = join(dir, 'deputy.db');
  copyFileSync(FIXTURE, file);
  return Store.open(file);
}

describe('agents as written at version 12', () => {
  it('reads the lineage, the artifacts and a paused agent’s phase back', () => {
    const before = readFileSync(FIXTURE);
    const store = openCopy();
    try {
      expect(store.lineage.byRun(LEAD)).toMatchObject({
        role: 'lead',
        status: 'completed',
        depth: 1,
        parentRunId: null,
        grantedTools: ['helper', 'list_tasks'],
        usage: { inputTokens: 20, outputTokens: 10 },
      });
      expect(store.lineage.children(LEAD)).toEqual([
        expect.objectContaining({ runId: HELPER, role: 'helper', depth: 2, grantedTools: ['list_tasks'] }),
      ]);
      expect(store.artifacts.byRun(LEAD).map((artifact) => [artifact.agentId, artifact.content])).toEqual([
        ['helper', 'Note: Nothing open.'],
        ['lead', 'Note: Helper found nothing open.'],
      ]);
      expect(store.artifacts.byRun(LEAD)[0]?.metadata).toEqual({
        size: 19,
        hash: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
        mimeType: 'text/markdown',
      });
      expect(store.lineage.byRun(GATED)).toMatchObject({ role: 'gated', status: 'active' });
      const state = parseRunState(store.checkpoints.load(GATED)?.state);
      expect(state).toMatchObject({ sopPhase: 'act', sopResults: 0 });
      expect(state?.awaiting).toHaveLength(1);
    } finally {
      store.close();
    }
    expect(readFileSync(FIXTURE).equals(before)).toBe(true);
  });
});
