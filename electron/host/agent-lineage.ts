import type { LineageNode } from '../../shared/contract';
import type { LineageRow } from '../store/lineage-repo';
import type { Store } from '../store/store';

type Usage = LineageNode['usage'];
const add = (a: Usage, b: Usage): Usage => ({
  inputTokens: a.inputTokens + b.inputTokens,
  outputTokens: a.outputTokens + b.outputTokens,
  cost: Math.round((a.cost + b.cost) * 1e6) / 1e6,
});
const ZERO: Usage = { inputTokens: 0, outputTokens: 0, cost: 0 };

/** How deep a tree is walked: depth is bounded at 3, so this only guards against a damaged table. */
const MAX_NODES = 500;

/**
 * The delegation tree under a run: the run itself when it is an agent run, then every child, parents before
 * children. Each node's `rolledUp` is its own usage plus its descendants' (Keep-Up §5.4). A run still going
 * counts the tokens its run row has so far.
 */
export function lineageView(
  store: Store,
  runId: string,
): { runId: string; nodes: LineageNode[]; total: Usage } {
  const rows: LineageRow[] = [];
  const self = store.lineage.byRun(runId);
  if (self) rows.push(self);
  const queue = [runId];
  while (queue.length > 0 && rows.length < MAX_NODES) {
    const parent = queue.shift() as string;
    for (const child of store.lineage.children(parent)) {
      rows.push(child);
      queue.push(child.runId);
    }
  }
  const ownUsage = new Map(rows.map((row) => [row.runId, usageOf(store, row)]));
  const rolled = new Map<string, Usage>();
  for (const row of [...rows].reverse()) {
    const children = rows.filter((other) => other.parentRunId === row.runId);
    rolled.set(
      row.runId,
      children.reduce(
        (sum, child) => add(sum, rolled.get(child.runId) ?? ZERO),
        ownUsage.get(row.runId) ?? ZERO,
      ),
    );
  }
  const nodes = rows.map((row) => ({
    id: row.id,
    runId: row.runId,
    parentRunId: row.parentRunId,
    parentAgentId: row.parentAgentId,
    parentActionId: row.parentActionId,
    role: row.role,
    status: row.status,
    depth: row.depth,
    grantedTools: row.grantedTools,
    createdAt: row.createdAt,
    completedAt: row.completedAt,
    usage: ownUsage.get(row.runId) ?? ZERO,
    rolledUp: rolled.get(row.runId) ?? ZERO,
  }));
  const roots = self ? [self] : rows.filter((row) => row.parentRunId === runId);
  const total = roots.reduce((sum, row) => add(sum, rolled.get(row.runId) ?? ZERO), ZERO);
  return { runId, nodes, total };
}

function usageOf(store: Store, row: LineageRow): Usage {
  if (row.completedAt) return row.usage;
  const live = store.runs.usage(row.runId);
  return live
    ? { inputTokens: live.inputTokens, outputTokens: live.outputTokens, cost: row.usage.cost }
    : row.usage;
}
