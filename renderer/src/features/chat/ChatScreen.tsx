import { useChat } from '../../stores';
import { PutInBox, useBoxDraft } from './box-draft';
import { Composer } from './Composer';
import { Conversation } from './Conversation';
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

  return (
    <main className="chat" aria-label="Chat">
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
