import { describe, expect, it } from 'vitest';
import { toolRetryNotice } from '../../../electron/engine/retry-notice';
import { decide } from '../../../electron/policy/decide';
import { startProblem } from '../../../electron/mcp/start-problem';
import { openDatabase } from '../../../electron/store/database';
import { Store } from '../../../electron/store/store';
import { ToolRegistry } from '../../../electron/tools/registry';
import { createTaskTools } from '../../../electron/tools/tasks/task-tools';
import { outputOf, whatWords } from '../../../renderer/src/features/audit/audit-words';
import type { AuditEntry, McpServerConfig } from '../../../shared/contract';
import { quoted } from '../../../shared/quote-words';
import {
  decisionNoteForPerson,
  expiredRunForPerson,
  expiredRunWords,
  refusalForGone,
} from '../../../shared/rejection-words';
import { summarizeToolCall } from '../../../shared/tool-summaries';
import { addTask, policyContext } from '../policy/policy-tools';

/**
 * Words a person reads quote in one way: “…”, with ‘…’ only for a quote inside a quote. Straight quotes (what the
 * model is told, and what is stored and read back) and single quotes on their own do not reach them.
 */
function expectQuotedForPerson(words: string | undefined, what: string): void {
  expect(words).toContain(`“${what}”`);
  expect(words).not.toMatch(/["‘]/);
}

const tasksAround = () => {
  const store = new Store(openDatabase(':memory:'));
  store.tasks.add({ id: 'task-1', description: 'Buy milk', due: null, notes: null }, '2026-11-21T10:00:00Z');
  const registry = new ToolRegistry(createTaskTools(store.tasks, () => new Date('2026-11-21T10:00:00Z')));
  return { registry, id: 'task-1' };
};

const auditEntry = (fields: Partial<AuditEntry>): AuditEntry =>
  ({ authority: { decision: null, rule: null, approvedBy: null }, output: null, ...fields }) as AuditEntry;

describe('quotes in the words a person reads', () => {
  it('quotes in curly double quotes, and a quote inside them in single ones', () => {
    expect(quoted('Buy milk')).toBe('“Buy milk”');
    expect(quoted('Mark “Buy milk” as done')).toBe('“Mark ‘Buy milk’ as done”');
    // The person's own straight quotes are theirs: left as they wrote them.
    expect(quoted('Say "hi"')).toBe('“Say "hi"”');
  });

  it('in approval titles and the audit trail’s target, for a task known and one not', async () => {
    const { registry, id } = tasksAround();
    const preview = (tool: string, taskId: string) => registry.get(tool)?.preview?.({ id: taskId } as never);
    expectQuotedForPerson(preview('mark_task_complete', id)?.title, 'Buy milk');
    expectQuotedForPerson(preview('delete_task', id)?.title, 'Buy milk');
    expectQuotedForPerson(preview('update_task', id)?.title, 'Buy milk');
    expectQuotedForPerson(preview('delete_task', 'nosuch')?.title, 'nosuch');
    const reachOf = registry.get('delete_task')?.reach;
    const context = { signal: new AbortController().signal, now: () => new Date() };
    const target = async (taskId: string) => (await reachOf?.({ id: taskId } as never, context))?.target;
    expectQuotedForPerson(await target(id), 'Buy milk');
    expectQuotedForPerson(await target('nosuch'), 'nosuch');
  });

  it('in the policy’s reasons', () => {
    const reason = (overrides: Parameters<typeof policyContext>[0]) =>
      decide(
        { tool: addTask, args: { description: 'Buy milk' }, meta: { confidence: 0.95 } },
        policyContext(overrides),
      ).reason;
    expectQuotedForPerson(reason({ grantedTools: new Set(['list_tasks']) }), 'Buy milk');
    expectQuotedForPerson(reason({}), 'Add a task');
  });

  it('in the chat’s cards, notices and the audit trail’s rows and output', () => {
    expectQuotedForPerson(summarizeToolCall('add_task', { description: 'Buy milk' }, true), 'Buy milk');
    const addTaskTool = { name: 'add_task' };
    expectQuotedForPerson(
      toolRetryNotice(addTaskTool, { description: 'Buy milk' }, 'unavailable', 1_000),
      'Buy milk',
    );
    const run = auditEntry({ kind: 'decision', actionType: 'run', input: { request: 'Plan my week' } });
    expectQuotedForPerson(whatWords(run), 'Plan my week');
    const other = auditEntry({ kind: 'tool_call', actionType: 'notes__save', input: { text: 'Buy milk' } });
    expectQuotedForPerson(whatWords(other), 'Buy milk');
    const gone = refusalForGone('notes', 'removed');
    const turnedDown = auditEntry({ kind: 'tool_call', errorMessage: gone.message, isTurnedDown: true });
    expectQuotedForPerson(outputOf(turnedDown) as string, 'notes');
    expectQuotedForPerson(decisionNoteForPerson(gone.note), 'notes');
    const expired = expiredRunWords('Add a task: Buy milk', '2026-11-28T08:06:23.000Z');
    expectQuotedForPerson(expiredRunForPerson(expired, () => '9:06') ?? '', 'Add a task: Buy milk');
  });

  it('in what Settings says of an MCP server that did not start', () => {
    const config = { transport: 'stdio', command: 'notes-server', args: [] } as unknown as McpServerConfig;
    const missing = Object.assign(new Error('spawn notes-server ENOENT'), { code: 'ENOENT' });
    expectQuotedForPerson(startProblem(missing, config, null, 10_000), 'notes-server');
  });
});
