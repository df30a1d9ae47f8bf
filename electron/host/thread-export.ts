import type { CommandParsedInput, ThreadsExportOutput } from '../../shared/contract';
import { isWrittenAsIs, notHandedOut } from './export-cursor';
import type { ExportEntryRow, ExportThreadRow, ThreadExportRows } from '../store/thread-export-rows';
import {
  EXPORT_WRITERS,
  type ExportClock,
  type ExportEntry,
  type ExportWriter,
} from './thread-export-formats';

/**
 * What one page holds at most: entries (a conversation's head counts as one) and characters of their text. A
 * single message longer than the page still goes whole, alone.
 */
export interface ExportPageSize {
  entries: number;
  chars: number;
}

export const EXPORT_PAGE: ExportPageSize = { entries: 200, chars: 256 * 1024 };

export interface ThreadExportDeps {
  rows: ThreadExportRows;
  now: () => Date;
  /** The person's time zone, for the dates a Markdown export shows. */
  timezone: () => string;
  /** The name an agent's row shows in the conversation (its display name), for a delegated run's words. */
  agentName: (name: string) => string;
  pageSize?: ExportPageSize;
}

/** Where a page starts: after a whole conversation, or inside one after one of its messages. */
type Place = { after: number } | { inside: number; seq: number };

/**
 * The contract has checked its form: `<n>` or `<n>.<m>`. Deputy writes each number as it is (no leading zero,
 * none past what is exact), and never hands out a place before the first conversation or its first message.
 */
function placeOf(cursor: string | undefined): Place {
  if (cursor === undefined) return { after: 0 };
  const parts = cursor.split('.');
  const [thread = 0, seq] = parts.map(Number);
  if (!parts.every(isWrittenAsIs) || thread < 1 || seq === 0) throw notHandedOut();
  return seq === undefined ? { after: thread } : { inside: thread, seq };
}

/** The part of a page still free, used up as it is written. */
interface Room {
  entries: number;
  chars: number;
  parts: string[];
}

const isFull = (room: Room): boolean => room.entries <= 0 || room.chars <= 0;

/**
 * "Export conversations": every conversation, oldest first (in the order they were started), each with what it
 * shows as said, as JSON lines or one Markdown document. A page is bounded by its messages, not by its
 * conversations, so a conversation of ten thousand messages spans pages and no page is one giant string.
 */
export class ThreadExport {
  constructor(private readonly deps: ThreadExportDeps) {}

  page(input: CommandParsedInput<'threads.export'>): ThreadsExportOutput {
    const writer = EXPORT_WRITERS[input.format];
    const clock: ExportClock = { now: this.deps.now(), timezone: this.deps.timezone() };
    const room: Room = {
      ...(this.deps.pageSize ?? EXPORT_PAGE),
      parts: input.cursor === undefined ? [writer.start(clock)] : [],
    };
    let conversations = 0;
    const done = (nextCursor: string | null): ThreadsExportOutput => ({
      text: room.parts.join(''),
      nextCursor,
      conversations,
    });
    let place = placeOf(input.cursor);
    if ('inside' in place) {
      const { inside, seq } = place;
      this.checkInside(inside, seq);
      const thread = this.deps.rows.threadAt(inside);
      const since = thread ? this.deps.rows.messageTime(thread.id, seq) : null;
      if (thread && since !== null) {
        const stoppedAt = this.writeEntries(writer, room, thread, { seq, since, isFirst: false });
        if (stoppedAt !== null) return done(`${inside}.${stoppedAt}`);
        place = { after: inside };
      } else {
        // The conversation this page was inside was deleted meanwhile: its part ends here, and a conversation
        // started since in its place is not it, so it is written from its start.
        room.parts.push(writer.end());
        place = { after: inside - 1 };
      }
    }
    while (!isFull(room)) {
      const thread = this.deps.rows.nextThread(place.after);
      if (!thread) return done(null);
      conversations += 1;
      room.entries -= 1;
      room.parts.push(writer.head(thread, clock));
      const stoppedAt = this.writeEntries(writer, room, thread, { seq: 0, since: '', isFirst: true });
      if (stoppedAt !== null) return done(`${thread.position}.${stoppedAt}`);
      place = { after: thread.position };
    }
    return done(String(place.after));
  }

  /**
   * A cursor inside a conversation names one of its messages. A message that is gone went with its conversation,
   * deleted during the export, which is passed over; one never written, or one of another conversation, means the
   * cursor was not handed out by a page and is refused rather than answered with a line that does not parse.
   */
  private checkInside(position: number, seq: number): void {
    const { rows } = this.deps;
    const place = rows.messagePlace(seq);
    if (place === null ? seq > rows.lastMessageSeq() : place !== position) throw notHandedOut();
  }

  /**
   * The conversation's entries after message `seq` (written at `since`), as many as the page has room for, and
   * its end when they are all written. Answers the last message written when the page is full before that.
   */
  private writeEntries(
    writer: ExportWriter,
    room: Room,
    thread: ExportThreadRow,
    from: { seq: number; since: string; isFirst: boolean },
  ): number | null {
    const { rows } = this.deps;
    const { messages, isEnd } = rows.messagesAfter(
      thread.id,
      from.seq,
      Math.max(1, room.entries),
      room.chars,
    );
    const last = messages.at(-1);
    // A run's answer given by its summary sits among the messages by when it was given, after those of its very
    // time; the answers from the page's last message's time on wait for the page that goes on from it.
    const answers = rows.answersBetween(thread.id, from.since, !isEnd && last ? last.createdAt : null);
    let isFirst = from.isFirst;
    for (const entry of inTimeOrder(messages, answers)) {
      room.parts.push(writer.entry(this.authored(entry), isFirst));
      isFirst = false;
    }
    room.entries -= messages.length + answers.length;
    room.chars -= textOf(messages) + textOf(answers);
    if (!isEnd && last) return last.seq;
    room.parts.push(writer.end());
    return null;
  }

  /** Who said it, as the conversation heads it: the person, Deputy, or inside a delegated run's row its agent. */
  private authored(entry: ExportEntryRow): ExportEntry {
    const author =
      entry.role === 'user' ? 'You' : entry.agent !== null ? this.deps.agentName(entry.agent) : 'Deputy';
    return { ...entry, author };
  }
}

const textOf = (entries: readonly ExportEntryRow[]): number =>
  entries.reduce((total, entry) => total + entry.text.length, 0);

/** Messages (in their order) with the answers put in by time: each after the messages written up to then. */
function inTimeOrder(messages: ExportEntryRow[], answers: ExportEntryRow[]): ExportEntryRow[] {
  if (answers.length === 0) return messages;
  const merged: ExportEntryRow[] = [];
  let next = 0;
  for (const message of messages) {
    while (next < answers.length && (answers[next]?.createdAt ?? '') < message.createdAt)
      merged.push(answers[next++] as ExportEntryRow);
    merged.push(message);
  }
  return [...merged, ...answers.slice(next)];
}
