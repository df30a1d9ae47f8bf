const STORAGE_KEY = 'deputy.lastThreadId';

/**
 * The conversation the main window last had open, kept in the page's storage (in the desktop app, inside its
 * data folder) so the app reopens on it, as chat apps do. Only an id: no title or text.
 */
export function loadLastThreadId(): string | null {
  try {
    return window.localStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

/** `null` (a new conversation, or the open one deleted) forgets it: the app then opens on the welcome. */
export function saveLastThreadId(threadId: string | null): void {
  try {
    if (threadId === null) window.localStorage.removeItem(STORAGE_KEY);
    else window.localStorage.setItem(STORAGE_KEY, threadId);
  } catch {
    // Storage can be disabled; the app then opens on the welcome.
  }
}
