import type { ToolRegistry } from '../tools/registry';
import type { ContentOrigin, ToolContext } from '../tools/tool';
import type { ContextItem, ContextSource } from './context-rank';
import { slackInstant } from './slack-dms';

/** A source that could not answer, and why; the rest of the context still comes back. */
export interface Unavailable {
  source: ContextSource;
  reason: string;
}

export type Gathered = { items: ContextItem[] } | { unavailable: Unavailable };

type Row = Record<string, unknown>;
const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/**
 * How each read tool's answer becomes context items: which list holds them, and what of each is its title,
 * its detail and its time. The label comes from the tool's own provenance, so a mail is labelled here exactly
 * as gmail_search labels it.
 */
const SHAPES: Record<
  string,
  {
    source: ContextSource;
    list: string;
    item: (row: Row) => Omit<ContextItem, 'source' | 'label' | 'isConfirmed'>;
  }
> = {
  calendar_search: {
    source: 'calendar',
    list: 'events',
    item: (row) => ({
      title: text(row.summary) || '(no title)',
      detail: [`${text(row.start)} – ${text(row.end)}`, text(row.location), attendeesOf(row)]
        .filter(Boolean)
        .join('; '),
      at: text(row.start) || null,
    }),
  },
  gmail_search: {
    source: 'gmail',
    list: 'messages',
    item: (row) => ({
      title: text(row.subject),
      detail: `from ${text(row.from)} to ${text(row.to)}: ${text(row.snippet)}`,
      at: Number.isNaN(Date.parse(text(row.date))) ? null : new Date(text(row.date)).toISOString(),
    }),
  },
  list_tasks: {
    source: 'tasks',
    list: 'tasks',
    item: (row) => ({
      title: text(row.description),
      detail: [row.due ? `due ${text(row.due)}` : '', text(row.notes)].filter(Boolean).join('; '),
      at: text(row.due) || null,
    }),
  },
  slack_read: {
    source: 'slack',
    list: 'messages',
    item: (row) => ({
      title: text(row.text).slice(0, 200),
      detail: `from ${text(row.userName) || text(row.userId)}`,
      at: slackInstant(row.ts),
    }),
  },
};

/** Asks one read tool through the registry (its account check and time limit apply) and reads back its items. */
export async function gatherFrom(
  registry: ToolRegistry,
  name: keyof typeof SHAPES,
  args: Record<string, unknown>,
  context: ToolContext,
): Promise<Gathered> {
  const shape = SHAPES[name];
  if (!shape) throw new Error(`no context shape for ${name}`);
  const check = registry.check(name, args);
  if (!check.ok) return { unavailable: { source: shape.source, reason: check.message } };
  const outcome = await registry.run(check, context);
  if (!outcome.ok) return { unavailable: { source: shape.source, reason: outcome.message } };
  const rows = outcome.result[shape.list];
  const list = Array.isArray(rows) ? (rows as Row[]) : [];
  let origins: ContentOrigin[] = [];
  try {
    origins = check.tool.provenance?.(outcome.result) ?? [];
  } catch {
    origins = [];
  }
  return {
    items: list.map((row, index) => {
      const origin = origins[index];
      return {
        source: shape.source,
        label: origin?.label ?? `what ${name} returned`,
        isConfirmed: origin?.isConfirmed === true,
        ...shape.item(row),
      };
    }),
  };
}

function attendeesOf(row: Row): string {
  const attendees = Array.isArray(row.attendees) ? (row.attendees as Row[]) : [];
  const emails = attendees.map((attendee) => text(attendee.email)).filter(Boolean);
  return emails.length > 0 ? `with ${emails.join(', ')}` : '';
}
