import type { StoreApi } from 'zustand/vanilla';
import type {
  ApprovalsChangedEvent,
  RunEvent,
  ThreadDetail,
  ThreadSummary,
} from '../../../../shared/contract';
import type { Conversation, TimelineItem } from './timeline';

type RunErrorItem = Extract<TimelineItem, { kind: 'error' }>;

export interface ChatState {
  threads: ThreadSummary[];
  nextBefore: string | null;
  isLoadingThreads: boolean;
  threadsError: string | null;
  conversation: Conversation;
  /**
   * The open conversation as it was last read on its own (`thread.get`), or null: what it is called where the list's
   * loaded pages do not reach it (the quick prompt keeps no more than the first).
   */
  openedThread: ThreadSummary | null;
  /**
   * The conversation this window had open, found deleted (elsewhere): a new one is open in its place. `title` as
   * this window last listed it, when it had.
   * `isSendRefused` when that was found by a message sent to it, which was not sent (the composer keeps it).
   */
  deletedThread: { threadId: string; title: string | null; isSendRefused: boolean } | null;
  isLoadingThread: boolean;
  threadError: string | null;
  /** `run.start` has been sent and not answered yet. */
  isStarting: boolean;
  /** The conversation being deleted, if one is. */
  deletingThreadId: string | null;
  deleteError: string | null;
  /** When the window last heard anything of the run it waits on (ms since the epoch). */
  lastActivityAt: number;
  /** A message to bring into view once the conversation is shown (a search hit's), until the list has. */
  focusMessageId: string | null;
  /** The run whose Stop was pressed and not refused: its Stop reads "Stopping…" until it ends. */
  stoppingRunId: string | null;
}

export interface ChatActions {
  /** Subscribes to every run's events for the window's lifetime and loads the thread list; returns the undo. */
  connect(): () => void;
  loadThreads(): Promise<void>;
  loadMoreThreads(): Promise<void>;
  /** An approval was settled (`approvals.changed`): its conversation no longer says it needs approval. */
  approvalsChanged(event: ApprovalsChangedEvent): void;
  /** Opens a conversation; with `messageId`, that message is brought into view instead of the end. */
  openThread(threadId: string, messageId?: string): Promise<void>;
  /**
   * Reads the open conversation again, as after a reconnect (events sent while the socket was down are lost),
   * showing what it showed until the new copy is here, and each run under way as it was until its replay is.
   */
  refreshThread(): Promise<void>;
  /**
   * The socket dropped: until the conversation is read again, what the host says of it is held for that reading.
   * Added to the copy shown, the first words after a reconnect would follow those said unheard, with a gap.
   */
  connectionLost(): void;
  /**
   * Opens the conversation the window had open last time; one since deleted leaves the welcome instead of an
   * error (the caller forgets it).
   */
  reopenThread(threadId: string): Promise<boolean>;
  /**
   * Reads the open conversation on its own for its row (`openedThread`), when the list has not got it; one found
   * deleted is dropped for a new conversation (`deletedThread`).
   */
  readOpenedThread(): Promise<void>;
  /**
   * Starts a run elsewhere (the agent picker's `agents.run`) and opens its conversation, keeping every event that
   * arrives before the window knows which conversation it is, so nothing it streamed meanwhile is lost.
   */
  openStarted<T extends { runId: string; threadId: string }>(start: () => Promise<T>): Promise<T>;
  /** The message list has brought the focused message into view. */
  clearFocus(): void;
  newConversation(): void;
  /** Resolves false when the message could not be sent (the composer then keeps it). */
  send(prompt: string): Promise<boolean>;
  /** Sends again what a failed run or send was asked, when nothing was asked after it (see turns.ts). */
  retry(error: RunErrorItem): Promise<boolean>;
  /** The prompt behind a failure, or null when it is not known here. */
  promptOf(error: RunErrorItem): string | null;
  stop(): Promise<void>;
  receive(event: RunEvent): void;
  /** Gives a conversation a new title; resolves to what went wrong, or null once renamed. */
  renameThread(threadId: string, title: string): Promise<string | null>;
  /** Deletes a conversation for good; resolves true once it is gone (also when it was gone already). */
  deleteThread(threadId: string): Promise<boolean>;
  /** After conversations were deleted elsewhere (Settings → Data): the list reloads, the open one closes if gone. */
  refreshAfterDeletion(): Promise<void>;
}

export type ChatStore = StoreApi<ChatState & ChatActions>;

export interface ChatStoreOptions {
  /**
   * Told each stored copy of the open conversation as it arrives, so the other stores that show it (its plans)
   * take what they need from this one reading: `thread.get` of a long conversation is large to send and parse.
   */
  onThreadRead?: (detail: ThreadDetail) => void;
}

/** Stop was pressed on the run this window waits on, and the host has not refused it: it is being stopped. */
export const isStopping = (state: ChatState): boolean =>
  state.stoppingRunId !== null && state.stoppingRunId === state.conversation.activeRun?.runId;
