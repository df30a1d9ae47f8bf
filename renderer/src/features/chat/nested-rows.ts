import type { Artifact, LineageNode, Plan } from '../../../../shared/contract';
import { nestChildRuns, type TreeEntry } from '../agents/agent-tree';
import type { TimelineRow } from './timeline-rows';

/** A plan, drawn as its tree right under the request that made it. */
export type PlanRow = { kind: 'plan'; id: string; runId: string; plan: Plan };
/** What the agents of a run made, after the run's last entry. */
export type ArtifactsRow = { kind: 'artifacts'; id: string; runId: string; artifacts: readonly Artifact[] };
/** A child run (an agent a call started), with its own entries nested the same way, after that call's card. */
export type ChildRow = {
  kind: 'child';
  id: string;
  runId: string;
  node: LineageNode;
  entries: NestedEntry[];
};
export type NestedRow = TimelineRow | PlanRow | ArtifactsRow | ChildRow;
export type NestedEntry = TreeEntry<TimelineRow>;

export interface RowExtras {
  /** The conversation's plans, each with the run it belongs under. */
  plans: readonly { plan: Plan; runId: string }[];
  /** The lineage of the conversation's agent runs. */
  nodes: readonly LineageNode[];
  artifacts: Readonly<Record<string, readonly Artifact[]>>;
}

/** The row a plan's tree is drawn in. */
export const planRowId = (planId: string): string => `plan-${planId}`;

/**
 * The flat rows the virtual list draws, with the plan trees, the child runs and the artifacts in their places:
 * a child run is one row (its entries inside it, few and not virtualised), so the list stays one flat list.
 */
export function nestedRows(rows: readonly TimelineRow[], extras: RowExtras): NestedRow[] {
  if (extras.plans.length === 0 && extras.nodes.length === 0) return rows as NestedRow[];
  const tree = extras.nodes.length > 0 ? nestChildRuns(rows, extras.nodes) : rows.map(asEntry);
  const plansOf = new Map<string, PlanRow[]>();
  for (const { plan, runId } of extras.plans)
    plansOf.set(runId, [
      ...(plansOf.get(runId) ?? []),
      { kind: 'plan', id: planRowId(plan.id), runId, plan },
    ]);
  const lastOfRun = new Map<string, string>();
  for (const entry of tree)
    if (entry.kind === 'item' && entry.item.runId) lastOfRun.set(entry.item.runId, entry.item.id);

  const out: NestedRow[] = [];
  for (const entry of tree) {
    if (entry.kind === 'child') {
      out.push({
        kind: 'child',
        id: `child-${entry.node.runId}`,
        runId: entry.node.runId,
        node: entry.node,
        entries: entry.entries,
      });
      continue;
    }
    const { item } = entry;
    out.push(item);
    // A request's plans go right under it, before anything else of its run. Not after the answer's opening
    // words: while a run is live those cannot be told from its final answer (planned calls' cards sit inside
    // the tree, so the answer often follows the request directly), and the tree would jump down when the
    // first words arrive.
    if (item.kind === 'message' && item.role === 'user' && item.runId)
      out.push(...(plansOf.get(item.runId) ?? []));
    const made =
      item.runId && lastOfRun.get(item.runId) === item.id ? extras.artifacts[item.runId] : undefined;
    if (item.runId && made && made.length > 0)
      out.push({ kind: 'artifacts', id: `artifacts-${item.runId}`, runId: item.runId, artifacts: made });
  }
  return out;
}

const asEntry = (item: TimelineRow): NestedEntry => ({ kind: 'item', item });
