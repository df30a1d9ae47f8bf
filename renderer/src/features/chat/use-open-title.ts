import { useEffect, useMemo, useState } from 'react';
import { useChat, useStores } from '../../stores';
import { deletedWords } from './deleted-words';
import { listedTitle, ownTitle } from './thread-names';

/**
 * The open conversation's title, as the conversation list calls it, or null until it is known. The list's row
 * comes first (it is read again as runs end, and renamed in place). A conversation its first page does not reach
 * (thirty others changed since) is read on its own each time the list is, so the header says which it is wherever
 * it is in the list; until that reading answers, the title the list last gave stays.
 */
export function useOpenTitle(): string | null {
  const stores = useStores();
  const threadId = useChat((state) => state.conversation.threadId);
  // Numbered as the list numbers it ("Task helper (2)"), so the header and the row say the same.
  const threads = useChat((state) => state.threads);
  const listed = useMemo(() => listedTitle(threads, threadId), [threads, threadId]);
  const read = useChat((state) =>
    state.openedThread !== null && state.openedThread.id === state.conversation.threadId
      ? ownTitle(state.openedThread)
      : null,
  );
  // Each time the list has been read without it (a new conversation is in the reading its first run asks for).
  const isListRead = useChat((state) => !state.isLoadingThreads);
  const isUnlisted = isListRead && threadId !== null && listed === null;
  useEffect(() => {
    if (isUnlisted) void stores.chat.getState().readOpenedThread();
  }, [isUnlisted, stores]);

  const [lastListed, setLastListed] = useState<{ threadId: string; title: string } | null>(null);
  if (
    threadId !== null &&
    listed !== null &&
    (lastListed?.threadId !== threadId || lastListed.title !== listed)
  )
    setLastListed({ threadId, title: listed });
  return (
    listed ?? read ?? (lastListed !== null && lastListed.threadId === threadId ? lastListed.title : null)
  );
}

/** The title the header gave the conversation `threadId` last, while it was open (as it is deleted, say). */
export function useLastTitle(threadId: string | null, title: string | null): string | null {
  const [last, setLast] = useState<{ threadId: string; title: string } | null>(null);
  const openId = useChat((state) => state.conversation.threadId);
  if (openId !== null && title !== null && (last?.threadId !== openId || last.title !== title))
    setLast({ threadId: openId, title });
  return last !== null && last.threadId === threadId ? last.title : null;
}

/**
 * What the window says when the conversation it had open was deleted elsewhere (another window, a script) and a new
 * one took its place: `deletedWords`, under the title `title` (the header's) last gave it; null while it was not.
 */
export function useDeletedNote(title: string | null): string | null {
  const deleted = useChat((state) => (state.conversation.threadId === null ? state.deletedThread : null));
  const lastTitle = useLastTitle(deleted?.threadId ?? null, title) ?? deleted?.title ?? null;
  return deleted === null ? null : deletedWords(lastTitle, deleted.isSendRefused);
}

/**
 * Each time the window comes back (focused again: the desktop app's window, a browser's tab), the conversation
 * list is read again, so that a conversation renamed or deleted elsewhere meanwhile reads so here; `comeBack`,
 * when given, runs first.
 */
export function useReadAgainOnFocus(comeBack?: () => void): void {
  const stores = useStores();
  useEffect(() => {
    const readAgain = () => {
      comeBack?.();
      void stores.chat.getState().loadThreads();
    };
    window.addEventListener('focus', readAgain);
    return () => window.removeEventListener('focus', readAgain);
  }, [comeBack, stores]);
}
