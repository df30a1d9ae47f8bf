import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { AuditEntry } from '../../../../shared/contract';
import { targetWords } from '../../../../shared/target-words';
import { useAudit } from '../../stores';
import { useAgentLabel } from '../agents/agent-names';
import { approverWords, decisionWords, statusOf, timeWords, whatWords } from './audit-words';
import { shortTimeWords, useTimeColumnStyle } from './time-column';

/** Every row is this tall, so which rows are visible is arithmetic, not measurement. */
export const ROW_HEIGHT = 44;
const OVERSCAN = 8;

/** The rows to render for a scroll position: the visible ones and a few either side. */
export function visibleRange(scrollTop: number, viewport: number, count: number): [number, number] {
  const first = Math.max(0, Math.floor(scrollTop / ROW_HEIGHT) - OVERSCAN);
  const last = Math.min(count, Math.ceil((scrollTop + viewport) / ROW_HEIGHT) + OVERSCAN);
  return [first, last];
}

const COLUMNS = ['Time', 'What', 'To whom or where', 'Status', 'Decision and rule', 'Approved by'];

/**
 * A virtualized table: only the rows in view exist in the page, so a million entries scroll like a hundred.
 * One row at a time is in the tab order (roving focus); the arrow keys, Home and End move between rows and
 * Enter or a click opens one. Scrolling near the end loads the next page.
 */
export function AuditTable() {
  const entries = useAudit((state) => state.entries);
  const selectedId = useAudit((state) => state.selectedId);
  const select = useAudit((state) => state.select);
  const loadMore = useAudit((state) => state.loadMore);
  const nextCursor = useAudit((state) => state.nextCursor);
  const isEmpty = useAudit((state) => state.entries.length === 0 && !state.isLoading && !state.listError);
  const isFiltered = useAudit((state) => Object.keys(state.filters).length > 0);
  const body = useRef<HTMLDivElement>(null);
  const table = useRef<HTMLDivElement>(null);
  const timeColumn = useTimeColumnStyle(table);
  const [scroll, setScroll] = useState({ top: 0, height: 600 });
  const [focusIndex, setFocusIndex] = useState(0);

  useEffect(() => {
    const element = body.current;
    if (!element) return;
    const observer = new ResizeObserver(() => setScroll((s) => ({ ...s, height: element.clientHeight })));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  const [first, last] = visibleRange(scroll.top, scroll.height, entries.length);
  useEffect(() => {
    if (nextCursor && last >= entries.length - OVERSCAN) void loadMore();
  }, [last, entries.length, nextCursor, loadMore]);

  const focusRow = (index: number) => {
    const clamped = Math.max(0, Math.min(entries.length - 1, index));
    setFocusIndex(clamped);
    const element = body.current;
    if (element) {
      const top = clamped * ROW_HEIGHT;
      if (top < element.scrollTop) element.scrollTop = top;
      else if (top + ROW_HEIGHT > element.scrollTop + element.clientHeight)
        element.scrollTop = top + ROW_HEIGHT - element.clientHeight;
    }
    const button = () => element?.querySelector<HTMLButtonElement>(`[data-row-index="${clamped}"] button`);
    // A row far away exists only once the scroll above has rendered it.
    const now = button();
    if (now) now.focus();
    else requestAnimationFrame(() => button()?.focus());
  };

  const onKeyDown = (event: KeyboardEvent) => {
    // Moves from the row that has focus (a click may have put it elsewhere than the last arrow did).
    const row = (event.target as HTMLElement).closest('[data-row-index]');
    const current = row ? Number(row.getAttribute('data-row-index')) : focusIndex;
    const moves: Record<string, number> = {
      ArrowDown: current + 1,
      ArrowUp: current - 1,
      PageDown: current + 10,
      PageUp: current - 10,
      Home: 0,
      End: entries.length - 1,
    };
    const target = moves[event.key];
    if (target === undefined) return;
    event.preventDefault();
    focusRow(target);
  };

  const rows = entries.slice(first, last);
  return (
    <div
      ref={table}
      className="audit-table"
      style={timeColumn}
      role="table"
      aria-label="Audit entries"
      aria-rowcount={entries.length + 1}
    >
      <div role="rowgroup">
        <div className="audit-table__row audit-table__head" role="row" aria-rowindex={1}>
          {COLUMNS.map((name) => (
            <div key={name} role="columnheader">
              {name}
            </div>
          ))}
        </div>
      </div>
      <div
        ref={body}
        className="audit-table__body"
        role="rowgroup"
        data-testid="audit-rows"
        onKeyDown={onKeyDown}
        onScroll={(event) =>
          setScroll({ top: event.currentTarget.scrollTop, height: event.currentTarget.clientHeight })
        }
      >
        {isEmpty && (
          <p className="audit-table__empty" data-testid="audit-empty">
            {isFiltered
              ? 'No entries match. Try fewer words, or clear a filter.'
              : 'Nothing yet: what Deputy does, and why, is written here as it happens.'}
          </p>
        )}
        <div style={{ height: entries.length * ROW_HEIGHT, position: 'relative' }}>
          {rows.map((entry, offset) => (
            <Row
              key={entry.id}
              entry={entry}
              index={first + offset}
              isSelected={entry.id === selectedId}
              isFocusable={first + offset === Math.min(focusIndex, entries.length - 1)}
              onOpen={(index) => {
                setFocusIndex(index);
                void select(entry.id);
              }}
            />
          ))}
        </div>
      </div>
    </div>
  );
}

function Row(props: {
  entry: AuditEntry;
  index: number;
  isSelected: boolean;
  isFocusable: boolean;
  onOpen: (index: number) => void;
}) {
  const { entry, index } = props;
  const target = entry.target ? targetWords(entry.target) : entry.scrubbedAt ? '(conversation deleted)' : '—';
  const decision = decisionWords(entry);
  const status = statusOf(entry);
  const agentLabel = useAgentLabel();
  const what = whatWords(entry, agentLabel);
  return (
    <div
      className={`audit-table__row audit-row audit-row--${entry.status}${props.isSelected ? ' audit-row--selected' : ''}`}
      role="row"
      aria-rowindex={index + 2}
      aria-current={props.isSelected ? 'true' : undefined}
      data-row-index={index}
      data-testid="audit-row"
      data-tool={entry.actionType}
      style={{ position: 'absolute', top: index * ROW_HEIGHT, height: ROW_HEIGHT, left: 0, right: 0 }}
      // A click anywhere on the row opens it, as a pointer user expects; the keyboard's way in is the button.
      onClick={(event) => {
        // Not when the click ended a text selection (copying a target or a rule), nor on the row's own button.
        if (window.getSelection()?.toString()) return;
        if (!(event.target as HTMLElement).closest('button, a')) props.onOpen(index);
      }}
    >
      <div role="cell" className="audit-row__time" title={timeWords(entry.createdAt)}>
        {shortTimeWords(entry.createdAt)}
      </div>
      <div role="cell" title={what}>
        <button
          type="button"
          className="audit-row__open"
          tabIndex={props.isFocusable ? 0 : -1}
          onClick={() => props.onOpen(index)}
        >
          {what}
        </button>
      </div>
      <div role="cell" className="audit-row__target" title={target}>
        {target}
      </div>
      <div role="cell">
        <span className={`audit-status audit-status--${status.tone}`}>{status.words}</span>
      </div>
      <div role="cell" className="audit-row__decision" title={decision}>
        {decision}
      </div>
      <div role="cell" className="audit-row__approver" title={approverWords(entry)}>
        {approverWords(entry)}
      </div>
    </div>
  );
}
