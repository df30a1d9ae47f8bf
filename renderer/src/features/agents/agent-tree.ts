import type { LineageNode } from '../../../../shared/contract';

/** An agent run still at work (or picking up again after a restart): its row, and its tree, may still change. */
export const isNodeWorking = (node: LineageNode): boolean =>
  node.status === 'active' || node.status === 'recovering';

/** A timeline entry as far as nesting needs it: which run it belongs to, and (for a tool card) its action. */
export interface TreeItem {
  id: string;
  kind: string;
  runId: string | null;
}

/** One top-level entry, or a child run (with its own entries, nested the same way) placed after its tool card. */
export type TreeEntry<T extends TreeItem> =
  { kind: 'item'; item: T } | { kind: 'child'; node: LineageNode; entries: TreeEntry<T>[] };

/**
 * Nests the entries of child runs under the tool card of the parent call that started them (the lineage row's
 * parentActionId), children of children likewise. A child whose card is not in the timeline goes where its
 * first entry was.
 */
export function nestChildRuns<T extends TreeItem>(
  items: readonly T[],
  nodes: readonly LineageNode[],
): TreeEntry<T>[] {
  const childByRun = new Map(
    nodes.filter((node) => node.parentRunId !== null).map((node) => [node.runId, node]),
  );
  const itemsOf = new Map<string, T[]>();
  for (const item of items) {
    if (item.runId && childByRun.has(item.runId))
      itemsOf.set(item.runId, [...(itemsOf.get(item.runId) ?? []), item]);
  }
  const childrenAfterCard = new Map<string, LineageNode[]>();
  for (const node of childByRun.values()) {
    const key = node.parentActionId ?? '';
    childrenAfterCard.set(key, [...(childrenAfterCard.get(key) ?? []), node]);
  }
  const cards = new Set(items.filter((item) => item.kind === 'tool').map((item) => item.id));
  const placed = new Set<string>();

  /** `owner`: the child run whose own entries these are, or null for the top level. */
  const build = (list: readonly T[], owner: string | null): TreeEntry<T>[] => {
    const entries: TreeEntry<T>[] = [];
    const place = (node: LineageNode) => {
      if (placed.has(node.runId)) return;
      placed.add(node.runId);
      entries.push({ kind: 'child', node, entries: build(itemsOf.get(node.runId) ?? [], node.runId) });
    };
    for (const item of list) {
      const child = item.runId ? childByRun.get(item.runId) : undefined;
      if (child && item.runId !== owner) {
        // An entry of a child inside its parent's list: the child is placed here unless its card places it.
        if (!child.parentActionId || !cards.has(child.parentActionId)) place(child);
        continue;
      }
      entries.push({ kind: 'item', item });
      if (item.kind === 'tool') for (const node of childrenAfterCard.get(item.id) ?? []) place(node);
    }
    return entries;
  };
  return build(items, null);
}
