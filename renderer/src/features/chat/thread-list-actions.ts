import type { StoreApi } from 'zustand/vanilla';
import type { ApprovalsChangedEvent, DeputyClient, ThreadSummary } from '../../../../shared/contract';
import { toClientError } from '../../api/client-error';
import type { ChatActions, ChatState } from './chat-store';
import { withApprovalAsked, withApprovalSettled } from './run-status';

const THREAD_PAGE = 30;

type ChatApi = StoreApi<ChatState & ChatActions>;

/** The chat store's actions on the list of conversations: its pages, renaming and deleting. */
export function threadListActions(
  client: DeputyClient,
  set: ChatApi['setState'],
  get: ChatApi['getState'],
): Pick<
  ChatActions,
  | 'loadThreads'
  | 'loadMoreThreads'
  | 'renameThread'
  | 'deleteThread'
  | 'refreshAfterDeletion'
  | 'approvalsChanged'
> {
  const withApproval = (threads: ThreadSummary[], event: ApprovalsChangedEvent) =>
    withApprovalAsked(withApprovalSettled(threads, event), event);
  // The approvals heard of while a list read is out: a slow host's answer, read before them, gets them too, or a
  // decided approval's conversation would say "needs approval" again until the run ends.
  const heard: ApprovalsChangedEvent[] = [];
  let readsOut = 0;
  // Reads are numbered: one answered after a later one was drawn is older news and is not drawn.
  let readsSent = 0;
  let drawnRead = 0;

  return {
    async loadThreads() {
      set({ isLoadingThreads: true });
      const from = heard.length;
      const read = ++readsSent;
      readsOut += 1;
      try {
        const page = await client.invoke('threads.list', { limit: THREAD_PAGE });
        if (read > drawnRead) {
          drawnRead = read;
          const threads = heard.slice(from).reduce(withApproval, page.threads);
          set({ threads, nextBefore: page.nextBefore, threadsError: null });
        }
      } catch (error) {
        // An older read that failed says nothing over a newer list drawn meanwhile.
        if (read > drawnRead) set({ threadsError: toClientError(error).message });
      } finally {
        readsOut -= 1;
        if (readsOut === 0) heard.length = 0;
        set({ isLoadingThreads: false });
      }
    },

    approvalsChanged(event) {
      if (readsOut > 0) heard.push(event);
      const threads = withApproval(get().threads, event);
      if (threads !== get().threads) set({ threads });
    },

    async loadMoreThreads() {
      const before = get().nextBefore;
      if (before === null) return;
      set({ isLoadingThreads: true });
      try {
        const page = await client.invoke('threads.list', { limit: THREAD_PAGE, before });
        set((state) => {
          const known = new Set(state.threads.map((thread) => thread.id));
          const added = page.threads.filter((thread) => !known.has(thread.id));
          return { threads: [...state.threads, ...added], nextBefore: page.nextBefore, threadsError: null };
        });
      } catch (error) {
        set({ threadsError: toClientError(error).message });
      } finally {
        set({ isLoadingThreads: false });
      }
    },

    async renameThread(threadId, title) {
      try {
        const renamed = await client.invoke('thread.rename', { threadId, title });
        set((state) => ({
          threads: state.threads.map((thread) => (thread.id === threadId ? renamed : thread)),
        }));
        return null;
      } catch (error) {
        return toClientError(error).message;
      }
    },

    async deleteThread(threadId) {
      if (get().deletingThreadId) return false;
      set({ deletingThreadId: threadId, deleteError: null });
      try {
        await client.invoke('thread.delete', { threadId });
      } catch (error) {
        const failure = toClientError(error);
        // Already gone (deleted from another window): the list catches up instead of showing an error.
        if (failure.code !== 'not_found') {
          set({ deletingThreadId: null, deleteError: failure.message });
          return false;
        }
      }
      set((state) => ({
        threads: state.threads.filter((thread) => thread.id !== threadId),
        deletingThreadId: null,
      }));
      if (get().conversation.threadId === threadId) get().newConversation();
      return true;
    },

    async refreshAfterDeletion() {
      await get().loadThreads();
      const { threadId } = get().conversation;
      if (threadId === null) return;
      try {
        await client.invoke('thread.get', { threadId });
      } catch (error) {
        if (toClientError(error).code === 'not_found' && get().conversation.threadId === threadId)
          get().newConversation();
      }
    },
  };
}
