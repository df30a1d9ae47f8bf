/** The listeners a repo tells after each change it writes (the context index embeds what changed soon). */
export class ChangeListeners {
  private readonly listeners = new Set<() => void>();

  /** Calls `listener` after each change; answers a function that stops the calls. */
  add(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  notify(): void {
    for (const listener of this.listeners) listener();
  }
}
