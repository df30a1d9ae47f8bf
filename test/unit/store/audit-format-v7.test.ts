import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { verifyAuditChain } from '../../../electron/store/audit-chain';
import { Store } from '../../../electron/store/store';

/**
 * A frozen database as Deputy left it at schema version 7 (made once, never rewritten): a run that read the task
 * list and added a task with a structured assumption, and a run the model refused. Its audit rows, their chain
 * and its hashes are a disk format: a change to how an entry is hashed or read shows up here as a broken chain.
 */
const FIXTURE = join(import.meta.dirname, '..', '..', 'fixtures', 'databases', 'deputy-v7-audit.db');

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function openCopy(): Store {
  const dir = mkdtempSync(join(tmpdir(), 'deputy-v7-'));
  dirs.push(dir);
  const file = join(dir, 'deputy.db');
  copyFileSync(FIXTURE, file);
  return Store.open(file);
}

describe('the audit trail written at version 7', () => {
  it('still reads, and its chain still checks', async () => {
    const before = readFileSync(FIXTURE);
    const store = openCopy();
    try {
      expect(await verifyAuditChain(store.db)).toEqual({ ok: true, links: 8, entries: 4, mismatch: null });
      const { entries } = store.auditQuery.list({});
      expect(entries.map((entry) => [entry.kind, entry.actionType, entry.status])).toEqual([
        ['decision', 'agent_decision', 'completed'],
        ['decision', 'agent_decision', 'completed'],
        ['tool_call', 'add_task', 'completed'],
        ['tool_call', 'list_tasks', 'completed'],
      ]);
      expect(entries[0]?.authority).toMatchObject({ decision: 'REFUSE', rule: 'REFUSAL:OUT_OF_SCOPE' });
      const added = entries[2];
      expect(added).toMatchObject({
        intent: 'Add the passport task',
        confidence: 0.92,
        entityType: 'task',
        authority: { decision: 'allow', approvedBy: 'autonomy' },
        undo: { isReversible: true },
      });
      expect(added?.assumptions).toEqual([
        expect.objectContaining({
          statement: 'Friday is the 27th',
          category: 'intent',
          evidence: ['by Friday'],
        }),
      ]);
      expect(store.auditQuery.list({ q: 'passport' }).entries.map((entry) => entry.actionType)).toEqual([
        'add_task',
      ]);
    } finally {
      store.close();
    }
    expect(readFileSync(FIXTURE).equals(before)).toBe(true);
  });
});
