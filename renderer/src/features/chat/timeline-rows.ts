import type { TimelineItem } from './timeline';

type ToolItem = Extract<TimelineItem, { kind: 'tool' }>;
type ApprovalItem = Extract<TimelineItem, { kind: 'approval' }>;

/** A tool call as the list draws it: one card per call, holding the approval it waits on. */
export type ToolRow = ToolItem & { approvalItem?: ApprovalItem };
export type TimelineRow = Exclude<TimelineItem, ToolItem> | ToolRow;

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
export function timelineRows(items: readonly TimelineItem[]): TimelineRow[] {
  const approvals = new Map<string, ApprovalItem>();
  const tools = new Set<string>();
  for (const item of items) {
    if (item.kind === 'approval') approvals.set(item.actionId, item);
    else if (item.kind === 'tool') tools.add(item.id);
  }
  if (approvals.size === 0) return items as TimelineRow[];
  const rows: TimelineRow[] = [];
  for (const item of items) {
    if (item.kind === 'approval' && tools.has(item.actionId)) continue;
    const approval = item.kind === 'tool' ? approvals.get(item.id) : undefined;
    rows.push(item.kind === 'tool' && approval ? withApproval(item, approval) : item);
  }
  return rows;
}
