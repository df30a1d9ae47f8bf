import { useChat } from '../../stores';
import { PutInBox, useBoxDraft } from './box-draft';
import { Composer } from './Composer';
import { Conversation } from './Conversation';
import { EmptyState } from './EmptyState';
import { OpenConnections } from './open-connections';
import { useEscapeStops } from './use-escape-stops';
import { useDeletedNote, useOpenTitle, useReadAgainOnFocus } from './use-open-title';

/** The main column: the conversation (or the welcome when there is none yet) above the composer. */
export function ChatScreen({ onOpenConnections }: { onOpenConnections: () => void }) {
  useEscapeStops();
  const { draft, replace, add } = useBoxDraft();
  const isEmpty = useChat(
    (state) =>
      state.conversation.threadId === null && state.conversation.items.length === 0 && !state.isStarting,
  );
  // Each time the window comes back, its list is read again: a conversation deleted elsewhere meanwhile leaves it,
  // and the open one, deleted, is let go for a new one (what is in the box stays), as the quick prompt does.
  useReadAgainOnFocus();
  // The conversation open here was deleted elsewhere (another window, a script): a new one took its place.
  const title = useOpenTitle();
  const deletedNote = useDeletedNote(title);

  return (
    <main className="chat" aria-label="Chat">
      {deletedNote !== null && (
        <p className="run-notice chat__deleted" role="status" data-testid="deleted-note">
          {deletedNote}
        </p>
      )}
      <OpenConnections value={onOpenConnections}>
        {isEmpty ? (
          <EmptyState onOpenConnections={onOpenConnections} onTryExample={replace} />
        ) : (
          <PutInBox value={add}>
            <Conversation />
          </PutInBox>
        )}
      </OpenConnections>
      <Composer draft={draft} />
    </main>
  );
}
