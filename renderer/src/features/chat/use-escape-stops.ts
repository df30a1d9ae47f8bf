import { useEffect } from 'react';
import { useStores } from '../../stores';

/**
 * Escape stops the run this window waits on, unless something else took the key first (a form closing, a
 * menu) or a dialog is open over the chat.
 */
export function useEscapeStops(): void {
  const { chat } = useStores();
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      if (document.querySelector('dialog[open], [aria-modal="true"]')) return;
      const { conversation, isStarting, stop } = chat.getState();
      if (conversation.activeRun === null && !isStarting) return;
      event.preventDefault();
      void stop();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [chat]);
}
