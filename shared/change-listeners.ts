/**
 * The listeners told after each change something writes (a repo's rows, the agents folder): who shows or indexes
 * it reads it again. One listener that throws (a window that went away mid-call) does not stop the others, nor
 * the write that told them.
 */
export class ChangeListeners {
  private readonly listeners = new Set<() => void>();

  /** Calls `listener` after each change; answers a function that stops the calls. */
  add(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  notify(): void {
    for (const listener of this.listeners) {
      try {
        listener();
      } catch {
        // Its own affair: the others still hear of the change.
      }
    }
  }
}
