import { useEffect, useLayoutEffect } from 'react';
import { PauseBanner } from '../side-effects/PauseBanner';
import { useChat, useStores } from '../../stores';
import { PutInBox, useBoxDraft } from '../chat/box-draft';
import { Composer } from '../chat/Composer';
import { Conversation } from '../chat/Conversation';
import { OpenConnections } from '../chat/open-connections';
import { OpenConnectionsButton } from '../chat/OpenConnectionsButton';
import { useIsGeminiConfigured } from '../connections/use-gemini-configured';
import { useDeletedNote, useOpenTitle, useReadAgainOnFocus } from '../chat/use-open-title';
import type { ConnectionStatus } from '../../api/ws-client';
import { ConnectionNote } from '../connection/ConnectionNote';
import { useReadAgainOnReconnect } from '../connection/use-read-again';
import { joinHash, splitHash } from '../../route';

const focusComposer = () => document.getElementById('composer-input')?.focus();

/** In a browser: this tab goes to the workspace's Settings → Connections, its address's parameters kept. */
const openConnectionsHere = () => {
  window.location.hash = joinHash('/settings/connections', splitHash(window.location.hash).params);
};

/**
 * The quick prompt (the shell's small window at `#/quick`): type, press Enter, watch the answer stream and
 * decide approvals inline, then carry on in the main window. Escape is handled by the shell, which hides
 * the window; the conversation stays, so the next press of the shortcut picks it up again.
 */
export function QuickPrompt({ status }: { status: ConnectionStatus | 'ipc' }) {
  const stores = useStores();
  // In a browser the socket can drop: the window says so, as the workspace's header does, and reads again after.
  useReadAgainOnReconnect(status);
  const threadId = useChat((state) => state.conversation.threadId);
  // An earlier question asked again is put in the box below, to be checked and sent.
  const { draft, add } = useBoxDraft();
  const isEmpty = useChat(
    (state) =>
      state.conversation.threadId === null && state.conversation.items.length === 0 && !state.isStarting,
  );

  // The open conversation's title: typing goes into that conversation, and it says which.
  const title = useOpenTitle();
  // The conversation it had open was deleted (in the main window): a new one took its place, and it says so.
  const deletedNote = useDeletedNote(title);

  // In a browser, #/quick is a route of the workspace's page, whose store still holds the conversation open there:
  // the quick prompt is for a quick new question, so it starts one, as the desktop app's window starts empty. The
  // workspace's conversation stays in the list, and the workspace opens it again when it comes back. (The shell's
  // window is a page of its own, and keeps its conversation between shows.)
  useLayoutEffect(() => {
    if (!window.deputyShell && stores.chat.getState().conversation.threadId !== null)
      stores.chat.getState().newConversation();
  }, [stores]);

  // The stores the workspace follows, so that a conversation (agent runs included) reads the same here.
  useEffect(() => {
    const disconnectChat = stores.chat.getState().connect();
    const disconnectApprovals = stores.approvals.getState().connect();
    const disconnectAgents = stores.agents.getState().connect();
    const disconnectPlans = stores.plans.getState().connect();
    return () => {
      disconnectChat();
      disconnectApprovals();
      disconnectAgents();
      disconnectPlans();
    };
  }, [stores]);

  // Before the first message, the window says whether Deputy has a Gemini key to answer with, as the main one's
  // welcome does; the connections are followed, so a key saved meanwhile (in the main window) is heard.
  const isGeminiConfigured = useIsGeminiConfigured();
  useEffect(() => (isEmpty ? stores.connections.getState().follow() : undefined), [isEmpty, stores]);

  // The window is hidden, not closed: each time the shortcut brings it back, typing goes straight in, and its
  // header reads the conversation's title again, as the list has it now (renamed in the main window meanwhile).
  useEffect(focusComposer, []);
  useReadAgainOnFocus(focusComposer);

  const shell = window.deputyShell;
  // The note, and a run that failed for want of a Gemini key, offer the way to add one: the shell hides this window
  // and opens Settings → Connections in the main one. In a browser this page becomes the main window there, as the
  // shell's own ask does (`#/settings/connections`, taken once); Back comes back here.
  const openConnections = shell ? () => void shell.openConnections() : openConnectionsHere;

  return (
    <div className="quick" data-testid="quick-prompt">
      <header className="quick__header">
        <h1 className="quick__title">Deputy</h1>
        {title !== null && (
          <p className="quick__thread" data-testid="quick-thread-title" title={title}>
            {title}
          </p>
        )}
        {deletedNote !== null && (
          <p className="quick__thread" data-testid="quick-thread-title">
            New conversation
          </p>
        )}
        <p className="quick__hint" aria-hidden="true">
          <kbd>Enter</kbd> send
          {/* Escape is the shell's: in a browser tab it hides nothing. */}
          {shell && (
            <>
              {' · '}
              <kbd>Esc</kbd> hide
            </>
          )}
        </p>
        {threadId !== null && (
          <button
            type="button"
            className="button"
            data-testid="quick-new"
            onClick={() => {
              stores.chat.getState().newConversation();
              focusComposer();
            }}
          >
            New
          </button>
        )}
        {threadId !== null && shell && (
          <button
            type="button"
            className="button button--primary"
            data-testid="quick-open-in-deputy"
            onClick={() => void shell.openThread(threadId)}
          >
            Open in Deputy
          </button>
        )}
      </header>
      <ConnectionNote status={status} className="quick__connection" />
      <p className="quick__connection" role="status" data-testid="quick-deleted-note">
        {deletedNote}
      </p>
      <PauseBanner />
      <main className="quick__body" aria-label="Quick prompt">
        {isEmpty && isGeminiConfigured === false ? (
          <div className="quick__empty" role="note" data-testid="quick-key-hint">
            <p>
              First, give Deputy a Gemini API key: paste it in Settings → Connections (or set GEMINI_API_KEY
              before starting Deputy).
            </p>
            <OpenConnectionsButton testId="quick-open-connections" onOpen={openConnections} />
          </div>
        ) : isEmpty ? (
          <p className="quick__empty">Ask Deputy anything, or tell it what to do.</p>
        ) : (
          <OpenConnections value={openConnections}>
            <PutInBox value={add}>
              <Conversation />
            </PutInBox>
          </OpenConnections>
        )}
        <Composer draft={draft} idlePlaceholder="Ask or tell Deputy (Shift+Enter: new line)" />
      </main>
    </div>
  );
}
