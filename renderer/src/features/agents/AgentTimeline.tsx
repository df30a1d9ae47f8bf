import { useEffect, useLayoutEffect, useMemo, useRef, type ReactNode, type Ref } from 'react';
import type { Artifact, LineageNode } from '../../../../shared/contract';
import { useAgents, useStores } from '../../stores';
import { isFocusLost } from '../../focus';
import { useAgentLabel, useIsRunStopped } from './agent-names';
import { isNodeWorking, type TreeItem } from './agent-tree';
import { AuthorName } from '../chat/author-name';
import { tokensAndCost } from '../chat/run-cost';
import './agents.css';

const STATUS_TEXT: Record<LineageNode['status'] | 'stopped' | 'starting', string> = {
  starting: 'starting…',
  active: 'working',
  stopped: 'stopped',
  recovering: 'picking up again',
  completed: 'done',
  failed: 'did not finish',
};

const NO_NODES: readonly LineageNode[] = [];

/**
 * The lineage of the conversation's agent runs and what they made, read again whenever a run appears or ends
 * (a new run may be a child: its parents are asked). A child heard starting (`startedChildren`) is read at once,
 * so its row shows before it says anything. `stored`: the trees the stored conversation came with, so a reopened
 * conversation draws an agent's words in its block at once, not as Deputy's until this read. The message list
 * nests child runs with it.
 */
export function useAgentLineage(
  items: readonly TreeItem[],
  endedRuns: readonly string[],
  startedChildren: readonly string[],
  stored: readonly LineageNode[] = NO_NODES,
): { nodes: LineageNode[]; artifacts: Record<string, readonly Artifact[]> } {
  const { agents: store } = useStores();
  const lineage = useAgents((state) => state.lineage);
  const artifacts = useAgents((state) => state.artifacts);
  const nodes = useMemo(() => latestNodes([...stored, ...Object.values(lineage).flat()]), [stored, lineage]);
  const childRuns = useMemo(
    () => new Set(nodes.filter((node) => node.parentRunId !== null).map((node) => node.runId)),
    [nodes],
  );
  const runIds = [
    ...new Set([...items.flatMap((item) => (item.runId ? [item.runId] : [])), ...startedChildren]),
  ];
  const key = `${runIds.join(',')}|${endedRuns.length}`;

  useEffect(() => {
    const ended = new Set(endedRuns);
    for (const runId of key.split('|')[0]?.split(',') ?? [])
      if (runId && !childRuns.has(runId)) void store.getState().readRun(runId, ended.has(runId));
    // childRuns and endedRuns are read, not watched: the key already changes with every new or ended run.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, store]);
  return { nodes, artifacts };
}

/**
 * A child run's row: collapsible, open while it works, its own entries inside (drawn by `render`). `isEmpty`: it
 * has shown nothing yet, so while it works it reads as starting.
 */
export function ChildRun({
  node,
  render,
  isEmpty,
  row,
}: {
  node: LineageNode;
  render: () => ReactNode;
  isEmpty: boolean;
  row?: { ref?: Ref<HTMLLIElement>; 'data-index'?: number };
}) {
  const isWorking = isNodeWorking(node);
  const label = useAgentLabel()(node.role) ?? node.role;
  // Its lineage row says failed when it was stopped: the run's own ending says which.
  const isStopped = useIsRunStopped(node.runId) && node.status === 'failed';
  const status = isStopped ? 'stopped' : node.status === 'active' && isEmpty ? 'starting' : node.status;
  const tokens = node.rolledUp.inputTokens + node.rolledUp.outputTokens;
  const details = useRef<HTMLDetailsElement>(null);
  const wasWorking = useRef(isWorking);
  // The row closes when the child ends. Focus inside it (on the approval card just decided by keyboard) would
  // fall to the page's start: it goes to the row's summary instead, where the person can open it again.
  useLayoutEffect(() => {
    const hasEnded = wasWorking.current && !isWorking;
    wasWorking.current = isWorking;
    const row = details.current;
    if (!hasEnded || !row) return;
    if (row.contains(document.activeElement) || isFocusLost())
      row.querySelector('summary')?.focus({ preventScroll: true });
  }, [isWorking]);
  return (
    <li className={`child-run child-run--${status}`} data-testid="child-run" data-role={node.role} {...row}>
      <details ref={details} open={isWorking || undefined}>
        <summary>
          <span className="child-run__role">{label}</span>
          <span className="child-run__status">{STATUS_TEXT[status]}</span>
          {tokens > 0 && (
            <span className="child-run__usage">
              {tokensAndCost(
                node.rolledUp.inputTokens,
                node.rolledUp.outputTokens,
                node.rolledUp.cost > 0 ? node.rolledUp.cost : null,
              )}
            </span>
          )}
        </summary>
        {!isEmpty && (
          <AuthorName.Provider value={label}>
            <ol className="timeline timeline--nested">{render()}</ol>
          </AuthorName.Provider>
        )}
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
