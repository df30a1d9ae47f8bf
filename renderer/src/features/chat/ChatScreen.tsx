import { useChat } from '../../stores';
import { PutInBox, useBoxDraft } from './box-draft';
import { Composer } from './Composer';
import { Conversation } from './Conversation';
import { deletedWords } from './deleted-words';
import { EmptyState } from './EmptyState';
import { OpenConnections } from './open-connections';
import { useEscapeStops } from './use-escape-stops';

/** The main column: the conversation (or the welcome when there is none yet) above the composer. */
export function ChatScreen({ onOpenConnections }: { onOpenConnections: () => void }) {
  useEscapeStops();
  const { draft, replace, add } = useBoxDraft();
  const isEmpty = useChat(
    (state) =>
      state.conversation.threadId === null && state.conversation.items.length === 0 && !state.isStarting,
  );
  // The conversation open here was deleted elsewhere (another window, a script): a new one took its place.
  const deleted = useChat((state) => (state.conversation.threadId === null ? state.deletedThread : null));

  return (
    <main className="chat" aria-label="Chat">
      {deleted !== null && (
        <p className="run-notice chat__deleted" role="status" data-testid="deleted-note">
          {deletedWords(deleted.title, deleted.isSendRefused)}
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
