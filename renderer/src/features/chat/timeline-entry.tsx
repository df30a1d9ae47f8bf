import { memo, type Ref } from 'react';
import { ApprovalSlot } from '../approvals/ApprovalSlot';
import { MessageView } from './MessageView';
import { RunErrorView } from './RunErrorView';
import { describeUsage, type RunUsage } from './run-cost';
import { useSettings } from '../../stores';
import { RUN_MARK_TEXT } from './run-marks';
import { ToolCallCard } from './ToolCallCard';
import { ChildRun } from '../agents/AgentTimeline';
import { RunArtifacts } from '../agents/RunArtifacts';
import { PlanTree } from '../plans/PlanTree';
import type { NestedEntry, NestedRow } from './nested-rows';

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
  isFound = false,
  foundStepId,
}: {
  item: NestedRow;
  index: number;
  measure: (element: HTMLLIElement | null) => void;
  /** The message a search hit opened the conversation at. */
  isFound?: boolean;
  /** In a plan's row, the step a search hit opened the conversation at. */
  foundStepId?: string;
}) {
  const row: RowProps = { ref: measure, 'data-index': index };
  switch (item.kind) {
    case 'plan':
      return (
        <li className="timeline__plan" {...row}>
          <PlanTree plan={item.plan} foundStepId={foundStepId} />
        </li>
      );
    case 'artifacts':
      return <RunArtifacts artifacts={item.artifacts} row={row} />;
    case 'child':
      return (
        <ChildRun
          node={item.node}
          row={row}
          isEmpty={item.entries.length === 0}
          render={() => <NestedEntries entries={item.entries} />}
        />
      );
    case 'message':
      // A question asked again after its turn failed is shown once, above; here a quiet line says so.
      return item.isRepeat ? (
        <li className="run-mark run-mark--repeat" data-testid="run-repeat" {...row}>
          You asked again
        </li>
      ) : (
        <MessageView message={item} row={row} isFound={isFound} />
      );
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
          <UsageWords usage={item.usage} />
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

const unmeasured = (): void => {};

/** A child run's own entries: few, so drawn whole inside its row rather than virtualised. */
function NestedEntries({ entries }: { entries: readonly NestedEntry[] }) {
  return (
    <>
      {entries.map((entry) =>
        entry.kind === 'child' ? (
          <ChildRun
            key={`child-${entry.node.runId}`}
            node={entry.node}
            isEmpty={entry.entries.length === 0}
            render={() => <NestedEntries entries={entry.entries} />}
          />
        ) : (
          <TimelineEntry key={entry.item.id} item={entry.item} index={-1} measure={unmeasured} />
        ),
      )}
    </>
  );
}

/** The footer's words, priced by the person's table once settings are loaded (the list prices until then). */
function UsageWords({ usage }: { usage: RunUsage }) {
  const prices = useSettings((state) => state.settings?.modelPrices);
  return <>{describeUsage(usage, prices)}</>;
}
