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
