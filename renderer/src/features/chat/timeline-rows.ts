import type { RunUsage } from './run-cost';
import type { TimelineItem } from './timeline';

type ToolItem = Extract<TimelineItem, { kind: 'tool' }>;
type ApprovalItem = Extract<TimelineItem, { kind: 'approval' }>;

/** A run's footer: the tokens it used and what they cost, under its last entry. */
export type UsageRow = { kind: 'usage'; id: string; runId: string; usage: RunUsage };

/** A tool call as the list draws it: one card per call, holding the approval it waits on. */
export type ToolRow = ToolItem & { approvalItem?: ApprovalItem };
export type TimelineRow = Exclude<TimelineItem, ToolItem> | ToolRow | UsageRow;

// A merged card is made again only when its tool item or its approval item changed, so memoised rows keep
// their identity while another message streams.
const merged = new WeakMap<ToolItem, { approvalItem: ApprovalItem; row: ToolRow }>();

function withApproval(tool: ToolItem, approvalItem: ApprovalItem): ToolRow {
  const cached = merged.get(tool);
  if (cached?.approvalItem === approvalItem) return cached.row;
  const row: ToolRow = { ...tool, approvalItem };
  merged.set(tool, { approvalItem, row });
  return row;
}

/** The rows of the message list: each approval moves into its tool call's card instead of a card of its own. */
export function timelineRows(
  items: readonly TimelineItem[],
  usage: Record<string, RunUsage> = {},
): TimelineRow[] {
  return withUsage(mergeApprovals(items), usage);
}

const usageRows = new WeakMap<RunUsage, UsageRow>();

/** Each run's footer goes after the run's last row. */
function withUsage(rows: TimelineRow[], usage: Record<string, RunUsage>): TimelineRow[] {
  const runs = Object.keys(usage);
  if (runs.length === 0) return rows;
  const lastOf = new Map<string, number>();
  rows.forEach((row, index) => {
    if (row.runId !== null && row.runId in usage) lastOf.set(row.runId, index);
  });
  const footers = new Map<number, UsageRow>();
  for (const runId of runs) {
    const runUsage = usage[runId];
    const at = lastOf.get(runId);
    if (!runUsage || at === undefined) continue;
    const row = usageRows.get(runUsage) ?? { kind: 'usage', id: `usage-${runId}`, runId, usage: runUsage };
    usageRows.set(runUsage, row);
    footers.set(at, row);
  }
  return rows.flatMap((row, index) => {
    const footer = footers.get(index);
    return footer ? [row, footer] : [row];
  });
}

/** The calls that have a tool card of their own: their approval is shown inside the card, not beside it. */
export function toolCardIds(items: readonly TimelineItem[]): Set<string> {
  return new Set(items.flatMap((item) => (item.kind === 'tool' ? [item.id] : [])));
}

function mergeApprovals(items: readonly TimelineItem[]): TimelineRow[] {
  const approvals = new Map<string, ApprovalItem>();
  for (const item of items) if (item.kind === 'approval') approvals.set(item.actionId, item);
  if (approvals.size === 0) return items as TimelineRow[];
  const tools = toolCardIds(items);
  const rows: TimelineRow[] = [];
  for (const item of items) {
    if (item.kind === 'approval' && tools.has(item.actionId)) continue;
    const approval = item.kind === 'tool' ? approvals.get(item.id) : undefined;
    rows.push(item.kind === 'tool' && approval ? withApproval(item, approval) : item);
  }
  return rows;
}
