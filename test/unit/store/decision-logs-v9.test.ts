import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { verifyAuditChain } from '../../../electron/store/audit-chain';
import { Store } from '../../../electron/store/store';
import { listToolInvocations } from '../../../electron/store/tool-invocations';
import { undoCallId } from '../../../electron/store/undo-ledger';

/**
 * A frozen database as Deputy left it at schema version 9 (made once, never rewritten): a run that read the task
 * list and added a task, the task's undo (a ledger action, committed), a run.start refused for bad input, a run
 * that spent the hour's token budget and a request refused for it. Its `decisions` rows, its `tool_invocations`
 * view and the undo's ledger row are a disk format.
 */
const FIXTURE = join(import.meta.dirname, '..', '..', 'fixtures', 'databases', 'deputy-v9-decisions.db');

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function openCopy(): Store {
  const dir = mkdtempSync(join(tmpdir(), 'deputy-v9-'));
  dirs.push(dir);
  const file = join(dir, 'deputy.db');
  copyFileSync(FIXTURE, file);
  return Store.open(file);
}

describe("spec 002's logs written at version 9", () => {
  it('still read: decisions (refusals included), tool invocations, and the undo as a committed ledger action', async () => {
    const before = readFileSync(FIXTURE);
    const store = openCopy();
    try {
      expect((await verifyAuditChain(store.db)).ok).toBe(true);
      const decisions = store.decisions.list({}, 10);
      expect(decisions.map((d) => [d.decision, d.outcome, d.errorCode, d.runId === null])).toEqual([
        ['REFUSE', 'REFUSAL:RATE_LIMITED', 'rate_limited', false],
        ['RESPOND_ONLY', 'SUCCESS:RESPONSE_GIVEN', null, false],
        ['REFUSE', 'REFUSAL:INVALID_INPUT', 'invalid_input', true],
        ['INVOKE_TOOL', 'SUCCESS:TASK_COMPLETED', null, false],
      ]);
      expect(decisions[0]?.intent).toBe('Anything else?');
      expect(decisions[2]?.summary).toMatch(/prompt must not be empty/);
      const acted = decisions[3];
      expect(acted).toMatchObject({ intent: 'Add a task to renew my passport', tokensUsed: 45 });
      expect(store.auditQuery.get(acted?.auditEntryId ?? '')?.kind).toBe('decision');

      const invocations = listToolInvocations(store.db, store.auditInbox, { runId: acted?.runId ?? '' }, 10);
      expect(invocations.map((i) => [i.kind, i.tool, i.success, i.outcome, i.tokensUsed])).toEqual([
        ['undo', 'add_task', true, 'SUCCESS:TASK_COMPLETED', null],
        ['tool_call', 'add_task', true, 'SUCCESS:TASK_COMPLETED', 15],
        ['tool_call', 'list_tasks', true, 'SUCCESS:TASK_COMPLETED', 15],
      ]);
      const original = store.auditQuery
        .list({ tool: 'add_task' })
        .entries.find((e) => e.kind === 'tool_call');
      expect(original?.status).toBe('rolled_back');
      expect(store.actions.byCall(acted?.runId ?? '', undoCallId(original?.id ?? ''))?.ledgerState).toBe(
        'committed',
      );
    } finally {
      store.close();
    }
    // Reading a copy never changes the frozen file.
    expect(readFileSync(FIXTURE).equals(before)).toBe(true);
  });
});
