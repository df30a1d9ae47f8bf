import { redactSecrets } from '../vault/redactor';

/**
 * Cuts a stream's text into whole lines: a chunk ends wherever the pipe did, often inside a line, so the part after
 * its last line break waits for the next chunk (kept to `maxChars`, so a line without end costs a fixed amount).
 */
export class LineBuffer {
  private partial = '';

  constructor(private readonly maxChars: number) {}

  /** The lines `chunk` completes, without their line breaks. */
  push(chunk: string): string[] {
    const parts = (this.partial + chunk).split(/\r?\n/);
    this.partial = (parts.pop() ?? '').slice(0, this.maxChars);
    return parts;
  }

  /** The line still waiting for its end ('' when none): a process that exits may not end its last line. */
  get rest(): string {
    return this.partial;
  }
}

/**
 * How far past a line's cut it is kept and read: a secret that starts before the cut is whole when the redactor
 * reads it, so no part of it is kept (cut first, a token's first half no longer has a token's shape).
 */
export const READ_PAST_CUT = 1_000;

/** A line of a server's output as it may be shown: its secrets taken out, then cut to `maxChars`. */
export function shownLine(line: string, maxChars: number): string {
  return redactSecrets(line.slice(0, maxChars + READ_PAST_CUT)).slice(0, maxChars);
}
