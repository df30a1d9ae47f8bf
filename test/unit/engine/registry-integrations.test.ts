import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { notConnected } from '../../../electron/connections/access';
import { openDatabase } from '../../../electron/store/database';
import { MemoriesRepo } from '../../../electron/store/memories-repo';
import { TasksRepo } from '../../../electron/store/tasks-repo';
import { createMemoryTools } from '../../../electron/tools/memory/memory-tools';
import { ToolRegistry } from '../../../electron/tools/registry';
import { createTaskTools } from '../../../electron/tools/tasks/task-tools';
import type { Integration, Tool } from '../../../electron/tools/tool';

const googleTool: Tool<{ q: string }> = {
  name: 'needs_google',
  description: 'Reads something from Google.',
  input: z.object({ q: z.string() }).strict(),
  output: z.object({ found: z.number() }),
  category: 'query',
  risk: 'low',
  hasSideEffects: false,
  requires: 'google',
  execute: () => ({ found: 1 }),
};

describe('tool registry and integrations', () => {
  it('answers a call to a tool whose account is missing at once, with the actionable message', () => {
    const connected = new Set<Integration>();
    const registry = new ToolRegistry([googleTool], (integration) =>
      connected.has(integration) ? null : notConnected(integration).message,
    );
    expect(registry.check('needs_google', { q: 'x' })).toEqual({
      ok: false,
      code: 'not_connected',
      message: 'Google is not connected. Connect Google in Settings → Connections, then ask again.',
    });
    connected.add('google');
    expect(registry.check('needs_google', { q: 'x' })).toMatchObject({ ok: true });
  });

  it('describes every built-in tool: category, risk, side effects, integration, input and output schemas', () => {
    const db = openDatabase(':memory:');
    const registry = new ToolRegistry([
      ...createTaskTools(new TasksRepo(db), () => new Date()),
      ...createMemoryTools(new MemoriesRepo(db), () => new Date()),
      googleTool,
    ]);
    const catalog = registry.catalog();
    expect(catalog.map((tool) => tool.name).sort()).toEqual(
      [
        'add_task',
        'delete_task',
        'list_tasks',
        'mark_task_complete',
        'needs_google',
        'save_memory',
        'search_memory',
        'update_task',
      ].sort(),
    );
    for (const tool of catalog) {
      expect(tool.input).toMatchObject({ type: 'object' });
      expect(tool.output).toMatchObject({ type: 'object' });
    }
    expect(catalog.find((tool) => tool.name === 'needs_google')).toMatchObject({
      requires: 'google',
      category: 'query',
      risk: 'low',
      hasSideEffects: false,
      output: { properties: { found: { type: 'number' } } },
    });
  });
});
