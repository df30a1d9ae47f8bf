/** What the server was supposed to send when it went quiet. */
export type SilencePhase = 'first_chunk' | 'next_chunk';

/**
 * Calls `onSilence` when a server stays quiet too long. It is armed only while the client waits on
 * the server, so time the caller spends handling a chunk never counts against the server.
 */
export class SilenceWatchdog {
  private timer: NodeJS.Timeout | undefined;
  private silence: { phase: SilencePhase; ms: number } | null = null;

  constructor(private readonly onSilence: () => void) {}

  arm(phase: SilencePhase, ms: number): void {
    this.disarm();
    this.timer = setTimeout(() => {
      this.silence = { phase, ms };
      this.onSilence();
    }, ms);
  }

  disarm(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** The wait that ran out, or null while none has. */
  expired(): { phase: SilencePhase; ms: number } | null {
    return this.silence;
  }
}
