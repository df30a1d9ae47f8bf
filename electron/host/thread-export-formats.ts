import type { ThreadsExportFormat } from '../../shared/contract';
import type { ExportEntryRow, ExportThreadRow } from '../store/thread-export-rows';
import { redactedJson, redactSecrets } from '../vault/redactor';

/** An entry of a conversation as the export writes it: who said it, in the words the conversation shows. */
export interface ExportEntry extends ExportEntryRow {
  /** "You", "Deputy", or the name a delegated agent's row shows. */
  author: string;
}

/** How the person reads the dates of a Markdown export. */
export interface ExportClock {
  now: Date;
  timezone: string;
}

/**
 * The pieces an export is written in, so that a page can end inside a conversation and the next one go on: the
 * document's start, a conversation's head, each entry (`isFirst` in its conversation) and a conversation's end.
 * Every piece passes the redactor on the way out, as the audit trail's export does: a message kept before its
 * secret was known (a key pasted, then saved in Settings) leaves without it.
 */
export interface ExportWriter {
  start(clock: ExportClock): string;
  head(thread: ExportThreadRow, clock: ExportClock): string;
  entry(entry: ExportEntry, isFirst: boolean): string;
  end(): string;
}

/** JSON lines: one conversation a line, `{id, title, createdAt, updatedAt, messages: [...]}`. */
const jsonl: ExportWriter = {
  start: () => '',
  head: ({ id, title, createdAt, updatedAt }) => {
    const json = redactedJson({ id, title, createdAt, updatedAt });
    // Its closing brace comes with the conversation's end, after the messages of however many pages.
    return `${json.slice(0, -1)},"messages":[`;
  },
  entry: ({ role, text, createdAt, runId, agent, author }, isFirst) =>
    `${isFirst ? '' : ','}${redactedJson({ role, text, createdAt, runId, ...(agent !== null && { agent: author }) })}`,
  end: () => ']}\n',
};

/** Markdown: one document, a heading per conversation with its date, then who said what, as written. */
const md: ExportWriter = {
  start: ({ now, timezone }) =>
    `# Conversations with Deputy\n\nExported ${dateTime(now.toISOString(), timezone)}. Dates are in ${timezone} time.\n`,
  head: (thread, { timezone }) =>
    `\n## ${redactSecrets(thread.title).replace(/\s+/g, ' ')} — ${date(thread.createdAt, timezone)}\n`,
  entry: ({ text, author }) => `\n**${author}:**\n\n${redactSecrets(text)}\n`,
  end: () => '',
};

export const EXPORT_WRITERS: Record<ThreadsExportFormat, ExportWriter> = { jsonl, md };

const formats = new Map<string, Intl.DateTimeFormat>();

function formatIn(timezone: string, withTime: boolean): Intl.DateTimeFormat {
  const key = `${timezone}|${withTime}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat('en-GB', {
      timeZone: timezone,
      dateStyle: 'long',
      ...(withTime && { timeStyle: 'short' }),
    });
    formats.set(key, format);
  }
  return format;
}

const date = (iso: string, timezone: string): string => formatIn(timezone, false).format(new Date(iso));
const dateTime = (iso: string, timezone: string): string => formatIn(timezone, true).format(new Date(iso));
