import { createStore } from 'zustand/vanilla';
import type { DeputyClient, RunEvent } from '../../../../shared/contract';
import { toClientError } from '../../api/client-error';
import { isRunStart } from '../../../../shared/run-start';
import { isRunEnd, RunFollowers } from './run-followers';
import {
  conversationFromThread,
  EARLY_EVENT_CAP,
  hold,
  runsUnderWay,
  withHeldEvents,
  withoutRunsToReplay,
  withRunsAsShown,
  type HeldEvents,
} from './stored-thread';
import { applyRunEvent, emptyConversation, type Conversation, type TimelineItem } from './timeline';
import { threadListActions } from './thread-list-actions';
import { ownTitle } from './thread-names';
import { isInLastTurn } from './turns';
import type { ChatActions, ChatState, ChatStore, ChatStoreOptions } from './chat-state';

export type { ChatActions, ChatState, ChatStore, ChatStoreOptions };

export function createChatStore(client: DeputyClient, { onThreadRead }: ChatStoreOptions = {}): ChatStore {
  let earlyEvents: RunEvent[] = [];
  // Every event, while a run started elsewhere has not said which conversation it is in.
  let beforeStart: HeldEvents | null = null;
  // The events of the conversation being opened, until its stored copy arrives (then folded into it).
  let opening: (HeldEvents & { threadId: string }) | null = null;
  // Stop pressed while the run is still being started (no id yet): it is stopped as soon as it has one.
  let isStopAsked = false;
  // Bumped whenever the window switches conversation, so a late answer does not land in the wrong one.
  let generation = 0;
  let localIds = 0;

  return createStore<ChatState & ChatActions>()((set, get) => {
    const update = (change: (conversation: Conversation) => Conversation) =>
      set((state) => ({ conversation: change(state.conversation) }));
    const append = (item: TimelineItem) =>
      update((current) => ({ ...current, items: [...current.items, item] }));

    // The runs replayed into the open conversation (its run and the agents it delegated to): their events on the
    // window-wide stream are left to the replay.
    const followers = new RunFollowers(client, {
      replace: (runId, replay) => {
        set({ lastActivityAt: Date.now() });
        update((current) => replay.reduce(applyRunEvent, withoutRunsToReplay(current, new Set([runId]))));
      },
      apply: (event) => {
        set({ lastActivityAt: Date.now() });
        update((current) => applyRunEvent(current, event));
      },
    });

    // `focusMessageId`: the message a search hit asked for, held until the list has shown it. Only a switch sets
    // it: a reading again (after a reconnect), or one that failed, keeps what was asked.
    const switchTo = (
      conversation: Conversation,
      isLoadingThread: boolean,
      focusMessageId: string | null = null,
      deletedThread: ChatState['deletedThread'] = null,
    ) => {
      generation += 1;
      earlyEvents = [];
      opening = null;
      followers.stopAll();
      // The quiet time of a run found going in the opened conversation counts from now: its earlier events
      // were not seen here, and it is not silent for having started before the window looked.
      set({
        conversation,
        openedThread: null,
        deletedThread,
        isLoadingThread,
        threadError: null,
        isStarting: false,
        focusMessageId,
        lastActivityAt: Date.now(),
      });
      return generation;
    };

    // The open conversation was deleted (in another window): typing goes into a new one, and the window says why.
    // Its row goes from the list, as deleting it here takes it; its title is kept to say which one it was.
    const dropDeleted = (threadId: string, isSendRefused: boolean) => {
      const { threads, openedThread } = get();
      const known = threads.find((thread) => thread.id === threadId) ?? openedThread;
      const title = known?.id === threadId ? ownTitle(known) : null;
      switchTo(emptyConversation(), false, null, { threadId, title, isSendRefused });
      set({ threads: threads.filter((thread) => thread.id !== threadId) });
    };

    /** Says why the conversation could not be read (`null` when it was, or a newer switch overtook it). */
    const load = async (
      threadId: string,
      messageId: string | undefined,
      early: HeldEvents,
      isRefresh = false,
    ): Promise<string | null> => {
      const mine = isRefresh ? ++generation : switchTo(emptyConversation(threadId), true, messageId ?? null);
      const held = {
        threadId,
        events: early.events.filter((event) => event.threadId === threadId),
        isFull: early.isFull,
      };
      opening = held;
      try {
        const detail = await client.invoke('thread.get', { threadId });
        // Past the cap, the runs' last events are missing: only the stored copy is whole.
        const kept = held.isFull ? [] : held.events;
        if (mine === generation) {
          onThreadRead?.(detail);
          // A run whose start arrived while the copy was read shows from its held events; one that ended meanwhile
          // has nothing more to follow.
          const known = new Set(
            kept.flatMap((event) => (isRunStart(event) || isRunEnd(event) ? [event.runId] : [])),
          );
          const toFollow = new Set(runsUnderWay(detail).filter((runId) => !known.has(runId)));
          const stored = withHeldEvents(conversationFromThread(detail), kept);
          const conversation = isRefresh ? withRunsAsShown(stored, get().conversation, toFollow) : stored;
          // A reading that failed before (the socket dropped again mid-reading) is behind it now.
          set({ conversation, openedThread: detail.thread, threadError: null });
          for (const runId of toFollow) if (!followers.isFollowing(runId)) followers.follow(runId);
        }
        return null;
      } catch (error) {
        const failure = toClientError(error);
        if (mine !== generation) return null;
        set({
          threadError: failure.message,
          conversation: held.events.reduce(applyRunEvent, get().conversation),
        });
        return failure.code;
      } finally {
        if (opening === held) opening = null;
        if (mine === generation) set({ isLoadingThread: false });
      }
    };

    return {
      threads: [],
      nextBefore: null,
      isLoadingThreads: false,
      threadsError: null,
      conversation: emptyConversation(),
      openedThread: null,
      deletedThread: null,
      isLoadingThread: false,
      threadError: null,
      isStarting: false,
      deletingThreadId: null,
      deleteError: null,
      lastActivityAt: 0,
      focusMessageId: null,
      stoppingRunId: null,

      connect() {
        const unsubscribe = client.on('run.events', {}, (event) => get().receive(event));
        void get().loadThreads();
        return unsubscribe;
      },

      ...threadListActions(client, set, get),

      async openThread(threadId, messageId) {
        await load(threadId, messageId, { events: [], isFull: false });
      },

      async refreshThread() {
        const { threadId } = get().conversation;
        const held = opening?.threadId === threadId ? opening : { events: [], isFull: false };
        if (threadId !== null) await load(threadId, undefined, held, true);
      },

      connectionLost() {
        const { threadId } = get().conversation;
        if (threadId !== null && opening === null) opening = { threadId, events: [], isFull: false };
      },

      async reopenThread(threadId) {
        const code = await load(threadId, undefined, { events: [], isFull: false });
        if (code !== 'not_found') return true;
        switchTo(emptyConversation(), false);
        return false;
      },

      async readOpenedThread() {
        const { threadId } = get().conversation;
        if (threadId === null) return;
        try {
          const { thread } = await client.invoke('thread.get', { threadId });
          if (get().conversation.threadId === threadId) set({ openedThread: thread });
        } catch (error) {
          // Not read while the socket is down: its title is left unsaid, never a wrong one. Deleted, it is let go.
          const isGone = toClientError(error).code === 'not_found';
          if (isGone && get().conversation.threadId === threadId && !get().isStarting)
            dropDeleted(threadId, false);
        }
      },

      async openStarted(start) {
        const held: HeldEvents = { events: [], isFull: false };
        beforeStart = held;
        let started;
        try {
          started = await start();
        } finally {
          if (beforeStart === held) beforeStart = null;
        }
        await load(started.threadId, undefined, held);
        return started;
      },

      clearFocus() {
        set({ focusMessageId: null });
      },

      newConversation() {
        switchTo(emptyConversation(), false);
      },

      async send(prompt) {
        const text = prompt.trim();
        const { conversation, isStarting } = get();
        if (!text || isStarting || conversation.activeRun) return false;
        const mine = generation;
        const localId = `local-${++localIds}`;
        append({ kind: 'message', id: localId, runId: null, role: 'user', text, isStreaming: false });
        isStopAsked = false;
        set({ isStarting: true, lastActivityAt: Date.now(), deletedThread: null });
        try {
          const threadId = conversation.threadId ?? undefined;
          const started = await client.invoke('run.start', { prompt: text, ...(threadId && { threadId }) });
          if (mine !== generation) return true;
          // The run's and those of the agents it started meanwhile: all are in its conversation.
          const early = earlyEvents.filter((event) => event.threadId === started.threadId);
          earlyEvents = [];
          update((current) => {
            let next: Conversation = {
              ...current,
              threadId: started.threadId,
              items: current.items.map((item) =>
                item.id === localId ? { ...item, runId: started.runId } : item,
              ),
            };
            next = early.reduce(applyRunEvent, next);
            const isKnown =
              next.endedRunIds.includes(started.runId) || next.activeRun?.runId === started.runId;
            return isKnown ? next : { ...next, activeRun: { runId: started.runId, status: 'queued' } };
          });
          if (isStopAsked) {
            isStopAsked = false;
            void get().stop();
          }
          if (conversation.threadId === null) void get().loadThreads();
          return true;
        } catch (error) {
          if (mine !== generation) return false;
          const { code, message } = toClientError(error);
          // Its conversation was deleted meanwhile: a new one takes its place, and the composer keeps the words.
          if (code === 'not_found' && conversation.threadId !== null)
            dropDeleted(conversation.threadId, true);
          else append({ kind: 'error', id: `error-${localId}`, runId: null, message, code, prompt: text });
          return false;
        } finally {
          if (mine === generation) set({ isStarting: false });
        }
      },

      promptOf(error) {
        if (error.prompt !== undefined) return error.prompt;
        const asked = get().conversation.items.find(
          (item) => item.kind === 'message' && item.role === 'user' && item.runId === error.runId,
        );
        return asked?.kind === 'message' ? asked.text : null;
      },

      async retry(error) {
        const prompt = get().promptOf(error);
        if (prompt === null || !isInLastTurn(get().conversation.items, error.id)) return false;
        return get().send(prompt);
      },

      async stop() {
        const run = get().conversation.activeRun;
        if (!run) {
          if (get().isStarting) isStopAsked = true;
          return;
        }
        // Once: a Stop pressed while the socket is down is sent when it is back, and reads "Stopping…" meanwhile.
        if (get().stoppingRunId === run.runId) return;
        set({ stoppingRunId: run.runId });
        try {
          await client.invoke('run.cancel', { runId: run.runId });
        } catch (error) {
          const { code, message } = toClientError(error);
          const id = `cancel-${run.runId}`;
          // The run may still be going: Stop is offered again, and the words say why it did not stop.
          if (get().stoppingRunId === run.runId) set({ stoppingRunId: null });
          update((current) => ({
            ...current,
            items: [
              ...current.items.filter((item) => item.id !== id),
              {
                kind: 'error',
                id,
                runId: null,
                message,
                code: code === 'disconnected' ? 'stop_unanswered' : code,
              },
            ],
          }));
        }
      },

      receive(event) {
        const { conversation, isStarting } = get();
        if (beforeStart) hold(beforeStart, event);
        if (opening?.threadId === event.threadId) hold(opening, event);
        // A followed run's events come by its replay (follow), not also from here.
        else if (event.threadId === conversation.threadId && !followers.isFollowing(event.runId)) {
          set({ lastActivityAt: Date.now() });
          update((current) => applyRunEvent(current, event));
        } else if (isStarting && conversation.threadId === null && earlyEvents.length < EARLY_EVENT_CAP) {
          earlyEvents.push(event);
        }
        if (isRunEnd(event)) void get().loadThreads();
      },
    };
  });
}
