/** How a conversation's tool-call cards change as the events of their calls arrive. */
import type { RunEventOf } from '../../../../shared/contract';
import type { TimelineItem } from './timeline';

type ToolItem = Extract<TimelineItem, { kind: 'tool' }>;

/** The tool card of `actionId` changed by `update`, or made by `create` at the end when there is none. */
export function upsertTool(
  items: TimelineItem[],
  actionId: string,
  create: () => ToolItem,
  update: (item: ToolItem) => ToolItem,
): TimelineItem[] {
  const index = items.findIndex((item) => item.kind === 'tool' && item.id === actionId);
  if (index === -1) return [...items, create()];
  return items.map((item, i) => (i === index && item.kind === 'tool' ? update(item) : item));
}

/**
 * Where a `tool_result` leaves its card (an older event, with no code, leaves none). A side effect whose run ended
 * around it (code `outcome_unknown`) may have happened: its card says so as the stored thread's does.
 */
export const outcomeOf = (
  event: RunEventOf<'tool_result'>,
): Pick<ToolItem, 'state' | 'result' | 'error' | 'errorCode' | 'canUndo' | 'undoNote' | 'ledgerState'> => ({
  ...(event.code === 'outcome_unknown' && { ledgerState: 'unknown' as const }),
  state: event.state,
  result: event.result,
  error: event.error ?? null,
  errorCode: event.code,
  ...(event.canUndo && { canUndo: true }),
  ...(event.undoNote !== undefined && { undoNote: event.undoNote }),
});

/** A card the stream moved on: its stored ledger state no longer says where it stands. */
export function moveTool(card: ToolItem, change: Partial<ToolItem>): ToolItem {
  const { ledgerState: _stale, ...rest } = card;
  return { ...rest, ...change };
}

/** The action's card, changed by `patch`; the other items as they are. */
const patchTool = (items: TimelineItem[], actionId: string, patch: Partial<ToolItem>): TimelineItem[] =>
  items.map((item) => (item.kind === 'tool' && item.id === actionId ? { ...item, ...patch } : item));

/** The action was undone: its card says so, and offers Undo no more. */
export const markUndone = (items: TimelineItem[], actionId: string): TimelineItem[] =>
  patchTool(items, actionId, { isUndone: true, canUndo: false, isUndoWaiting: false });

/**
 * An undo of the action waits for approval (`isWaiting`), or ended without undoing it: its card says it waits, or
 * offers Undo again.
 */
export const markUndoWaiting = (
  items: TimelineItem[],
  actionId: string,
  isWaiting: boolean,
): TimelineItem[] => patchTool(items, actionId, { isUndoWaiting: isWaiting });
