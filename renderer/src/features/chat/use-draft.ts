import { useCallback, useState } from 'react';

/**
 * What the person has typed and not sent, one draft per conversation (a new one's under `new`): switching to
 * another conversation and back, or a reload of the window, keeps it, and it does not follow the person into a
 * conversation it was not written for. Kept in the window's session storage, never on disk: a draft may hold
 * something the person would not have stored.
 */
export interface DraftShelf {
  read(threadId: string | null): string;
  write(threadId: string | null, text: string): void;
}

const PREFIX = 'deputy.draft.';

export function draftShelf(storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | null): DraftShelf {
  const key = (threadId: string | null) => PREFIX + (threadId ?? 'new');
  return {
    read(threadId) {
      try {
        return storage?.getItem(key(threadId)) ?? '';
      } catch {
        return '';
      }
    },
    write(threadId, text) {
      try {
        if (text.trim() === '') storage?.removeItem(key(threadId));
        else storage?.setItem(key(threadId), text);
      } catch {
        // Storage full or turned off: the draft stays in the box, as before there was a shelf.
      }
    },
  };
}

function sessionShelf(): DraftShelf {
  try {
    return draftShelf(window.sessionStorage);
  } catch {
    return draftShelf(null);
  }
}

let shelf: DraftShelf | null = null;

/**
 * The message box's text for `threadId`, kept on the shelf as it changes; another conversation shows its own.
 * `replaced`: a conversation found deleted, whose draft moves into the new one opened in its place.
 */
export function useDraft(
  threadId: string | null,
  replaced: string | null = null,
): [
  text: string,
  setText: (next: string | ((current: string) => string)) => void,
  keep: DraftShelf['write'],
] {
  shelf ??= sessionShelf();
  const drafts = shelf;
  const [shown, setShown] = useState(() => ({ threadId, text: drafts.read(threadId) }));
  // Another conversation was opened: its own draft, read while rendering so the old one never shows there.
  let current = shown;
  if (shown.threadId !== threadId) {
    const isCarried = threadId === null && replaced !== null && shown.threadId === replaced;
    const own = drafts.read(threadId);
    const text = isCarried ? [own, shown.text].filter((part) => part.trim() !== '').join('\n\n') : own;
    if (isCarried) {
      drafts.write(threadId, text);
      drafts.write(replaced, '');
    }
    current = { threadId, text };
    setShown(current);
  }
  const setText = useCallback(
    (next: string | ((current: string) => string)) =>
      setShown((state) => {
        const text = typeof next === 'function' ? next(state.text) : next;
        drafts.write(state.threadId, text);
        return { threadId: state.threadId, text };
      }),
    [drafts],
  );
  return [current.text, setText, drafts.write];
}
