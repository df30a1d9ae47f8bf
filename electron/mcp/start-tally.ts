import { MCP_START_ATTEMPTS } from '../../shared/contract';

export interface Backoff {
  firstMs: number;
  maxMs: number;
  /** The least wait after a first HTTP 500 at start, doubled for each in a row since (see DEFAULT_BACKOFF). */
  afterServerErrorMs: number;
}

/**
 * 1 s, 2 s, 4 s … up to a minute between starts. After an HTTP 500 at start, at least 10 s, then 20 s: some hosts
 * answer 500 for a while as a server boots, and a 500 counts as a failed start (a server that always answers it is
 * broken, and is left Failed after MCP_START_ATTEMPTS of them), so its tries are spread over the 30 s Deputy gives
 * any server to start (START_TIMEOUT_MS), where 1 s and 2 s apart they left one Failed 3 s after its first answer.
 */
export const DEFAULT_BACKOFF: Backoff = { firstMs: 1_000, maxMs: 60_000, afterServerErrorMs: 10_000 };

/**
 * How a start failed: `may pass` is not counted (an address not reached, an HTTP 429, 502, 503 or 504: see mayPass);
 * `server error` (an HTTP 500) is counted, and waited longer for (see DEFAULT_BACKOFF); any other is `counted`.
 */
export type FailedStartKind = 'may pass' | 'server error' | 'counted';

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
  /** Starts in a row, the last one's included, that the server's address answered with HTTP 500. */
  private serverErrors = 0;
  /** Set from the moment the server runs until it has stayed up `stayedUpMs`. */
  private proving: NodeJS.Timeout | null = null;

  constructor(
    private readonly backoff: Backoff = DEFAULT_BACKOFF,
    private readonly stayedUpMs: number = STAYED_UP_MS,
  ) {}

  /**
   * The wait before the next start: 1 s, 2 s, 4 s … up to a minute, growing with each death or failed start, and
   * after HTTP 500s in a row at least 10 s, 20 s …; or the wait the server asked for (`askedMs`, its Retry-After,
   * already capped), though never less than the first.
   */
  nextDelay(askedMs: number | null = null): number {
    const { firstMs, maxMs, afterServerErrorMs } = this.backoff;
    const delay = Math.min(maxMs, firstMs * 2 ** this.failures);
    this.failures += 1;
    if (askedMs !== null) return Math.max(firstMs, askedMs);
    return this.serverErrors === 0
      ? delay
      : Math.max(delay, afterServerErrorMs * 2 ** (this.serverErrors - 1));
  }

  /**
   * Notes a start that did not work, of `kind` (see FailedStartKind); says whether to try again, which it is not once
   * MCP_START_ATTEMPTS counted ones (an HTTP 500 among them) failed in a row.
   */
  failedStart(kind: FailedStartKind): boolean {
    if (kind !== 'may pass') this.failedStarts += 1;
    this.serverErrors = kind === 'server error' ? this.serverErrors + 1 : 0;
    return this.failedStarts < MCP_START_ATTEMPTS;
  }

  /** The server runs: once it has stayed up long enough, its start counts as one that worked, and all starts again. */
  running(): void {
    this.ended();
    this.serverErrors = 0;
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
    this.serverErrors = 0;
  }
}
