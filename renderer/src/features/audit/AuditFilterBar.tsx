import { useEffect, useId, useRef, useState } from 'react';
import { toolLabel } from '../../format';
import { RULE_TOOLS } from '../settings/permissions';
import { useAudit } from '../../stores';
import type { AuditFilters } from './audit-store';
import { CATEGORY_CHOICES, DECISION_CHOICES, RISK_CHOICES, STATUS_CHOICES } from './audit-words';
import { scopeWords, type ScopeKey } from './scope-words';
import { useAgentLabel } from '../agents/agent-names';

/** Filters set from an entry, shown so they can be taken off, in this order. */
const SCOPES: readonly ScopeKey[] = ['threadId', 'runId', 'agentId'];

/** The filters behind the Filters button on a narrow window (the search and the scopes stay in view). */
const FOLDED: readonly (keyof AuditFilters)[] = [
  'status',
  'category',
  'decision',
  'risk',
  'tool',
  'from',
  'to',
];

/** A tool's stored name from how a person writes it: "Add task" is add_task. */
const toolName = (typed: string): string => typed.trim().toLowerCase().replace(/\s+/g, '_');

/** Search and filters; each change reloads the list (the search after a short pause in typing). */
export function AuditFilterBar() {
  const filters = useAudit((state) => state.filters);
  const setFilter = useAudit((state) => state.setFilter);
  const scopeTitle = useAudit((state) => state.scopeTitle);
  const agentLabel = useAgentLabel();
  const [query, setQuery] = useState(filters.q ?? '');
  // The tool's name as the person types it ("add task" or "add_task"); the filter takes the stored name.
  const [tool, setTool] = useState(filters.tool ?? '');
  const toolListId = useId();
  const moreId = useId();
  const [isOpen, setIsOpen] = useState(false);
  const activeCount = FOLDED.filter((key) => filters[key]).length;
  // Suggestions: the actions rules name, and every tool seen in the list so far.
  const entries = useAudit((state) => state.entries);
  const seenTools = useRef(new Set<string>(RULE_TOOLS));
  for (const entry of entries) if (entry.kind !== 'decision') seenTools.current.add(entry.actionType);

  // Cleared or set from elsewhere: the box follows, but never rewrites what the person is typing.
  useEffect(() => {
    setTool((typed) => (toolName(typed) === (filters.tool ?? '') ? typed : (filters.tool ?? '')));
  }, [filters.tool]);

  useEffect(() => {
    if (query === (filters.q ?? '')) return;
    const timer = setTimeout(() => void setFilter('q', query.trim()), 250);
    return () => clearTimeout(timer);
  }, [query, filters.q, setFilter]);

  const select = (
    key: keyof AuditFilters,
    label: string,
    options: readonly (readonly [string, string])[],
  ) => (
    <label className="audit-filters__field">
      <span>{label}</span>
      <select
        value={String(filters[key] ?? '')}
        data-testid={`audit-filter-${key}`}
        onChange={(event) => void setFilter(key, event.target.value as never)}
      >
        {options.map(([value, text]) => (
          <option key={value} value={value}>
            {text}
          </option>
        ))}
      </select>
    </label>
  );

  const day = (key: 'from' | 'to', label: string) => (
    <label className="audit-filters__field">
      <span>{label}</span>
      <input
        type="date"
        value={filters[key] ?? ''}
        onChange={(event) => void setFilter(key, event.target.value)}
      />
    </label>
  );

  return (
    <form
      className="audit-filters"
      role="search"
      aria-label="Filter the audit trail"
      onSubmit={(e) => e.preventDefault()}
    >
      <label className="audit-filters__field audit-filters__search">
        <span>Search</span>
        <input
          type="search"
          value={query}
          placeholder="What, why, to whom…"
          data-testid="audit-search"
          onChange={(event) => setQuery(event.target.value)}
        />
      </label>
      {/* Only on a narrow window: there the filters fold away behind it, so the entries start near the top. */}
      <button
        type="button"
        className="button audit-filters__toggle"
        aria-expanded={isOpen}
        aria-controls={moreId}
        data-testid="audit-filters-toggle"
        onClick={() => setIsOpen((open) => !open)}
      >
        {activeCount > 0 ? `Filters (${activeCount} on)` : 'Filters'}
      </button>
      <div
        id={moreId}
        className={`audit-filters__more${isOpen ? ' audit-filters__more--open' : ''}`}
        data-testid="audit-filters-more"
      >
        {select('status', 'Status', [['', 'Any status'], ...STATUS_CHOICES])}
        {select('category', 'Category', [['', 'Any category'], ...CATEGORY_CHOICES])}
        {select('decision', 'Decision', [['', 'Any decision'], ...DECISION_CHOICES])}
        {select('risk', 'Risk', [['', 'Any risk'], ...RISK_CHOICES])}
        <label className="audit-filters__field audit-filters__tool">
          <span>Tool</span>
          <input
            type="text"
            value={tool}
            list={toolListId}
            placeholder="e.g. add task"
            data-testid="audit-filter-tool"
            onChange={(event) => {
              setTool(event.target.value);
              void setFilter('tool', toolName(event.target.value));
            }}
          />
          <datalist id={toolListId}>
            {[...seenTools.current].sort().map((name) => (
              <option key={name} value={toolLabel(name)} />
            ))}
          </datalist>
        </label>
        {day('from', 'From')}
        {day('to', 'To')}
      </div>
      {SCOPES.filter((key) => filters[key]).map((key) => {
        const words = scopeWords(key, String(filters[key]), { scopeTitle, agentLabel });
        return (
          <button
            key={key}
            type="button"
            className="audit-filters__scope"
            data-testid={`audit-scope-${key}`}
            onClick={() => void setFilter(key, '')}
            aria-label={words.label}
          >
            {words.text} ✕
          </button>
        );
      })}
    </form>
  );
}
