import { useEffect, useState } from 'react';
import { useChat } from '../../stores';

/**
 * The conversation list as a drawer in a narrow window: open and closed by the header's button, closed by
 * Escape and by opening a conversation. In a wide window the list is always shown and this state is unused.
 */
export function useDrawer(): { isOpen: boolean; toggle(): void; close(): void } {
  const [isOpen, setIsOpen] = useState(false);
  const threadId = useChat((state) => state.conversation.threadId);

  useEffect(() => setIsOpen(false), [threadId]);

  useEffect(() => {
    if (!isOpen) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      // A rename or a delete question in the list answers its own Escape: it closes, the drawer stays.
      if (event.target instanceof Element && event.target.closest('[data-keeps-escape]')) return;
      event.preventDefault();
      setIsOpen(false);
      document.getElementById('drawer-toggle')?.focus();
    };
    // Captured, so an open drawer takes Escape before the chat would read it as "stop the run".
    window.addEventListener('keydown', onKeyDown, true);
    return () => window.removeEventListener('keydown', onKeyDown, true);
  }, [isOpen]);

  return { isOpen, toggle: () => setIsOpen((open) => !open), close: () => setIsOpen(false) };
}
