import { memo, type Ref } from 'react';
import { ApprovalSlot } from '../approvals/ApprovalSlot';
import { MessageView } from './MessageView';
import { RunErrorView } from './RunErrorView';
import { describeUsage } from './run-cost';
import { RUN_MARK_TEXT } from './run-marks';
import { ToolCallCard } from './ToolCallCard';
import type { TimelineRow } from './timeline-rows';

/**
 * What every entry puts on its own `<li>`: the virtual list measures each row through `ref` and finds it again
 * by `data-index`. An entry kind added later (plan trees, child runs) takes these props and spreads them.
 */
export interface RowProps {
  ref?: Ref<HTMLLIElement>;
  'data-index'?: number;
}

/**
 * The extension point of the message list: one case per kind of timeline item. Memoised on the item, so while
 * an answer streams only the streaming message renders again (the reducer keeps every other item's identity).
 */
export const TimelineEntry = memo(function TimelineEntry({
  item,
  index,
  measure,
}: {
  item: TimelineRow;
  index: number;
  measure: (element: HTMLLIElement | null) => void;
}) {
  const row: RowProps = { ref: measure, 'data-index': index };
  switch (item.kind) {
    case 'message':
      return <MessageView message={item} row={row} />;
    case 'tool':
      return <ToolCallCard call={item} row={row} />;
    case 'approval':
      // Approvals are drawn inside their tool card; only one whose card is missing gets a row of its own.
      return (
        <li className="timeline__approval" {...row}>
          <ApprovalSlot actionId={item.actionId} snapshot={item.approval} />
        </li>
      );
    case 'error':
      return <RunErrorView error={item} row={row} />;
    case 'notice':
      return (
        <li className="run-notice" data-testid="run-notice" {...row}>
          {item.text}
        </li>
      );
    case 'usage':
      return (
        <li className="run-usage" data-testid="run-usage" {...row}>
          {describeUsage(item.usage)}
        </li>
      );
    case 'mark':
      return (
        <li
          className={`run-mark run-mark--${item.mark}`}
          data-testid="run-mark"
          data-mark={item.mark}
          {...row}
        >
          {RUN_MARK_TEXT[item.mark]}
        </li>
      );
  }
});
