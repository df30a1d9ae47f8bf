import { useEffect, useMemo, type ReactNode } from 'react';
import type { LineageNode } from '../../../../shared/contract';
import { useAgents, useStores } from '../../stores';
import { nestChildRuns, type TreeEntry, type TreeItem } from './agent-tree';
import { RunArtifacts } from './RunArtifacts';
import './agents.css';

const STATUS_TEXT: Record<LineageNode['status'], string> = {
  active: 'working',
  recovering: 'picking up again',
  completed: 'done',
  failed: 'did not finish',
};

/**
 * The conversation's entries with each agent's child run nested under the call that started it: collapsible,
 * streaming as its events arrive, its approvals inside. The artifacts a run registered follow its entries.
 */
export function AgentTimeline<T extends TreeItem>({
  items,
  endedRuns,
  renderItem,
}: {
  items: readonly T[];
  /** How many runs of the conversation have ended: the tree and its artifacts are read again when it changes. */
  endedRuns: number;
  renderItem: (item: T) => ReactNode;
}) {
  const { agents: store } = useStores();
  const lineage = useAgents((state) => state.lineage);
  const artifacts = useAgents((state) => state.artifacts);
  const nodes = useMemo(() => latestNodes(Object.values(lineage).flat()), [lineage]);
  const childRuns = useMemo(
    () => new Set(nodes.filter((node) => node.parentRunId !== null).map((node) => node.runId)),
    [nodes],
  );
  const runIds = [...new Set(items.flatMap((item) => (item.runId ? [item.runId] : [])))];
  const topRuns = runIds.filter((runId) => !childRuns.has(runId));
  const key = `${runIds.join(',')}|${endedRuns}`;

  // A new run in the timeline may be a child: ask its parents again (a handful of runs per conversation).
  useEffect(() => {
    for (const runId of key.split('|')[0]?.split(',') ?? [])
      if (runId && !childRuns.has(runId)) void store.getState().readRun(runId);
    // childRuns is read, not watched: the key already changes with every new run.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, store]);

  const tree = useMemo(() => nestChildRuns(items, nodes), [items, nodes]);
  const lastOfRun = new Map<string, string>();
  for (const item of items)
    if (item.runId && topRuns.includes(item.runId)) lastOfRun.set(item.runId, item.id);

  const render = (entries: TreeEntry<T>[]): ReactNode[] =>
    entries.map((entry) => {
      if (entry.kind === 'child')
        return (
          <ChildRun
            key={`child-${entry.node.runId}`}
            node={entry.node}
            render={() => render(entry.entries)}
          />
        );
      const { item } = entry;
      const made = item.runId && lastOfRun.get(item.runId) === item.id ? (artifacts[item.runId] ?? []) : [];
      return [
        <Keyed key={item.id}>{renderItem(item)}</Keyed>,
        made.length > 0 && <RunArtifacts key={`artifacts-${item.runId}`} artifacts={made} />,
      ];
    });

  return <>{render(tree)}</>;
}

function Keyed({ children }: { children: ReactNode }) {
  return <>{children}</>;
}

function ChildRun({ node, render }: { node: LineageNode; render: () => ReactNode[] }) {
  const isWorking = node.status === 'active' || node.status === 'recovering';
  const tokens = node.rolledUp.inputTokens + node.rolledUp.outputTokens;
  return (
    <li className={`child-run child-run--${node.status}`} data-testid="child-run" data-role={node.role}>
      <details open={isWorking || undefined}>
        <summary>
          <span className="child-run__role">{node.role}</span>
          <span className="child-run__status">{STATUS_TEXT[node.status]}</span>
          {tokens > 0 && (
            <span className="child-run__usage">
              {tokens.toLocaleString()} tokens
              {node.rolledUp.cost > 0 && ` · about $${node.rolledUp.cost.toFixed(4)}`}
            </span>
          )}
        </summary>
        <ol className="timeline timeline--nested">{render()}</ol>
      </details>
    </li>
  );
}

/**
 * A run read both as a tree of its own (before it was known to be a child) and inside its parent's tree: the
 * reading that knows more wins (ended over going, more tokens over fewer).
 */
function latestNodes(all: readonly LineageNode[]): LineageNode[] {
  const byRun = new Map<string, LineageNode>();
  const weight = (node: LineageNode) =>
    (node.completedAt ? 1e12 : 0) + node.rolledUp.inputTokens + node.rolledUp.outputTokens;
  for (const node of all) {
    const known = byRun.get(node.runId);
    if (!known || weight(node) >= weight(known)) byRun.set(node.runId, node);
  }
  return [...byRun.values()];
}
