import { MCP_START_ATTEMPTS } from '../../shared/contract';

export interface Backoff {
  firstMs: number;
  maxMs: number;
}

export const DEFAULT_BACKOFF: Backoff = { firstMs: 1_000, maxMs: 60_000 };

/**
 * A start counts as one that worked once the server has stayed up this long. A server that answers `initialize` and
 * `tools/list` and then dies at once (a database it cannot open, a port already taken) has not started any more than
 * one that never answers: counted as a success, it was restarted every second for ever. Ten seconds is longer than
 * such a server lives, and short enough that one which runs and later crashes is soon counted as having worked.
 */
export const STAYED_UP_MS = 10_000;

/**
 * How a server's starts have gone since one last worked: how long to wait before the next, and whether to try it
 * again at all. A start works once the server has stayed up `stayedUpMs`; a death before then is a failed start.
 */
export class StartTally {
  /** Deaths and failed starts since a start last worked: the restart's delay grows with them. */
  private failures = 0;
  /** Failed starts since a start last worked: at MCP_START_ATTEMPTS the server is left `failed`. */
  private failedStarts = 0;
  /** Set from the moment the server runs until it has stayed up `stayedUpMs`. */
  private proving: NodeJS.Timeout | null = null;

  constructor(
    private readonly backoff: Backoff = DEFAULT_BACKOFF,
    private readonly stayedUpMs: number = STAYED_UP_MS,
  ) {}

  /**
   * The wait before the next start: 1 s, 2 s, 4 s … up to a minute, growing with each death or failed start; or the
   * wait the server asked for (`askedMs`, its Retry-After, already capped), though never less than the first.
   */
  nextDelay(askedMs: number | null = null): number {
    const delay = Math.min(this.backoff.maxMs, this.backoff.firstMs * 2 ** this.failures);
    this.failures += 1;
    return askedMs === null ? delay : Math.max(this.backoff.firstMs, askedMs);
  }

  /**
   * Notes a start that did not work (`isCounted` false for one that does not count: an address not reached, an
   * HTTP 503); says whether to try again, which it is not once MCP_START_ATTEMPTS counted ones failed in a row.
   */
  failedStart(isCounted: boolean): boolean {
    if (isCounted) this.failedStarts += 1;
    return this.failedStarts < MCP_START_ATTEMPTS;
  }

  /** The server runs: once it has stayed up long enough, its start counts as one that worked, and all starts again. */
  running(): void {
    this.ended();
    this.proving = setTimeout(() => {
      this.proving = null;
      this.reset();
    }, this.stayedUpMs);
    this.proving.unref();
  }

  /** The server stopped, or was stopped: says whether that came before it had stayed up long enough. */
  ended(): boolean {
    const isEarly = this.proving !== null;
    if (this.proving) clearTimeout(this.proving);
    this.proving = null;
    return isEarly;
  }

  /** Counts afresh, as after a start that worked (and at Restart). */
  reset(): void {
    this.failures = 0;
    this.failedStarts = 0;
  }
}
