/** How long after an item is saved, edited or deleted it is embedded: the changes of one run go in one batch. */
export const EMBED_AFTER_MS = 1_000;

/** A corpus's index, as far as keeping it up to date goes. */
interface Syncable {
  changed(): void;
  sync(signal: AbortSignal): Promise<unknown>;
}

/**
 * Keeps one corpus's vectors (memories, tasks) up to date: a change is embedded shortly, in the background, so a
 * step never waits for it; until then a search says the newest items are matched by words only. Each sync (a
 * refresh's or one after a change) waits for the one under way, so none is doubled.
 */
export class EmbedSoon {
  private timer: NodeJS.Timeout | null = null;
  private synced: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly index: Syncable,
    /** What the corpus holds, for the log: `memories`, `tasks`. */
    private readonly what: string,
    private readonly stop: AbortSignal,
    private readonly logError: (message: string, error: unknown) => void,
  ) {}

  changed(): void {
    try {
      this.index.changed();
    } catch (error) {
      // Only the note that the newest items are not indexed yet is lost; they are still embedded in a second.
      this.logError(`noting a change to ${this.what} failed`, error);
    }
    if (this.timer || this.stop.aborted) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.sync(this.stop).catch((error: unknown) => {
        if (!this.stop.aborted) this.logError(`embedding ${this.what} failed`, error);
      });
    }, EMBED_AFTER_MS);
    this.timer.unref();
  }

  sync(signal: AbortSignal): Promise<unknown> {
    const synced = this.synced.catch(() => undefined).then(() => this.index.sync(signal));
    this.synced = synced;
    return synced;
  }

  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
