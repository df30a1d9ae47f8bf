import { LineBuffer, READ_PAST_CUT, shownLine } from './line-buffer';

const MAX_LINE_CHARS = 2_000;

/**
 * What a server wrote on stderr (and what Deputy noted about it), kept to the last `maxLines` lines of at most
 * 2,000 characters each: a server that writes without end costs a fixed amount of memory, never more. Lines are
 * redacted on the way in, so a token a server prints is not shown in Settings.
 */
export class BoundedLog {
  private readonly lines: string[] = [];
  private readonly pending = new LineBuffer(MAX_LINE_CHARS + READ_PAST_CUT);

  constructor(
    private readonly maxLines = 500,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** A chunk of a stream: complete lines are kept, the rest waits for its end (up to the line cap). */
  write(chunk: string): void {
    for (const line of this.pending.push(chunk)) this.push(line);
  }

  /** One line of Deputy's own about the server (started, exited, restarting). */
  note(line: string): void {
    this.push(`[deputy] ${line}`);
  }

  snapshot(): string[] {
    // A line not ended yet (a prompt, a last line before exit) is redacted as the ended ones are.
    const { rest } = this.pending;
    return rest ? [...this.lines, shownLine(rest, MAX_LINE_CHARS)] : [...this.lines];
  }

  private push(line: string): void {
    const stamped = `${this.now().toISOString()} ${shownLine(line, MAX_LINE_CHARS)}`;
    this.lines.push(stamped);
    if (this.lines.length > this.maxLines) this.lines.splice(0, this.lines.length - this.maxLines);
  }
}
