import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ClientCalls } from '../../../electron/host/client-calls';
import { Store } from '../../../electron/store/store';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function keptAnswer(store: Store, runId: string, text: string): void {
  store.policy.audit({
    timestamp: 'n',
    runId,
    actionId: null,
    tool: 'files__read_file',
    event: 'mcp_full_result',
    decision: null,
    rule: null,
    reason: null,
    detail: { text },
  });
}

describe('what crosses branches', () => {
  it('a deleted conversation takes the whole MCP answers kept for its runs, and no other', () => {
    const dir = mkdtempSync(join(tmpdir(), 'deputy-kept-'));
    dirs.push(dir);
    const store = Store.open(join(dir, 'deputy.db'));
    for (const [thread, run] of [
      ['t1', 'r1'],
      ['t2', 'r2'],
    ] as const) {
      store.threads.create(thread, thread, 'n');
      store.runs.create({ id: run, threadId: thread, model: 'm', prompt: 'p' }, 'n');
      keptAnswer(store, run, `the whole file of ${thread}`);
    }
    expect(store.data.deleteThread('t1')).toBe(true);
    const kept = store.db.prepare("SELECT run_id FROM audit WHERE event = 'mcp_full_result'").pluck().all();
    expect(kept).toEqual(['r2']);
    store.close();
  });

  it('other MCP clients are not offered query_context (contacts, mail and memories in one read)', () => {
    const registry = {
      list: () => [
        { name: 'query_context' },
        { name: 'add_task' },
        { name: 'files__read', mcpServer: 'files' },
      ],
    };
    const calls = new ClientCalls({ registry } as never);
    expect(calls.tools().map((tool) => tool.name)).toEqual(['add_task']);
  });
});
