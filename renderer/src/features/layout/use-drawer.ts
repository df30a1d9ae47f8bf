import { useEffect, useRef, useState, type RefObject } from 'react';
import { isFocusLost } from '../../focus';
import { useChat } from '../../stores';
import { tabStops } from '../../tab-stops';
import { useTabWrap } from '../../use-modal-dialog';

/** Where the conversation list is a drawer; the same width as layout.css's. */
const NARROW = '(max-width: 700px)';

/**
 * The conversation list as a drawer in a narrow window: open and closed by the header's button, closed by
 * Escape and by opening a conversation. In a wide window the list is always shown and this state is unused.
 *
 * Open, it holds the keyboard as a dialog does: the keyboard goes to its first control and Tab goes round inside
 * it, never to the chat under its backdrop, where focus would be out of sight. Closed by Escape,
 * the keyboard goes back to the header's button; closed by a choice in it, to the message box of the
 * conversation chosen.
 */
export function useDrawer(): {
  isOpen: boolean;
  /** While the drawer slides in or out; it slides only then, never when a resize makes it a drawer. */
  isMoving: boolean;
  /** For the drawer's element. */
  ref: RefObject<HTMLElement | null>;
  toggle(): void;
  close(): void;
} {
  // Open or closed, and whether it is sliding there: set together, so the slide starts in the same frame.
  const [state, setState] = useState({ isOpen: false, isMoving: false });
  const { isOpen, isMoving } = state;
  const setIsOpen = (open: boolean | ((isOpen: boolean) => boolean)) =>
    setState((now) => {
      const next = typeof open === 'function' ? open(now.isOpen) : open;
      return next === now.isOpen ? now : { isOpen: next, isMoving: true };
    });
  const threadId = useChat((state) => state.conversation.threadId);
  const isClosedByEscape = useRef(false);

  // It slides for layout.css's 160 ms; a little longer here, so that the slide is never cut short.
  useEffect(() => {
    if (!state.isMoving) return;
    const timer = setTimeout(
      () => setState((now) => (now === state ? { ...now, isMoving: false } : now)),
      250,
    );
    return () => clearTimeout(timer);
  }, [state]);

  useEffect(() => setIsOpen(false), [threadId]);

  // Widened past the narrow layout, the list is the sidebar again: a drawer left open would keep Tab inside it.
  useEffect(() => {
    const narrow = window.matchMedia(NARROW);
    const onChange = () => !narrow.matches && setIsOpen(false);
    narrow.addEventListener('change', onChange);
    return () => narrow.removeEventListener('change', onChange);
  }, []);

  useEffect(() => {
    if (!isOpen) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      // A rename or a delete question in the list answers its own Escape: it closes, the drawer stays.
      if (event.target instanceof Element && event.target.closest('[data-keeps-escape]')) return;
      event.preventDefault();
      isClosedByEscape.current = true;
      setIsOpen(false);
    };
    // Captured, so an open drawer takes Escape before the chat would read it as "stop the run".
    window.addEventListener('keydown', onKeyDown, true);
    return () => window.removeEventListener('keydown', onKeyDown, true);
  }, [isOpen]);

  const drawerRef = useRef<HTMLElement>(null);
  useTabWrap(drawerRef, isOpen);

  useEffect(() => {
    const drawer = drawerRef.current;
    if (!isOpen || !drawer) return;
    tabStops(drawer)[0]?.focus();
    return () => {
      const wasEscape = isClosedByEscape.current;
      isClosedByEscape.current = false;
      // Only from the drawer, or from nowhere: a person whose focus is elsewhere keeps it.
      if (!isFocusLost() && !drawer.contains(document.activeElement)) return;
      const composer = document.getElementById('composer-input') as HTMLTextAreaElement | null;
      const toggle = document.getElementById('drawer-toggle');
      (wasEscape || !composer || composer.disabled ? toggle : composer)?.focus();
    };
  }, [isOpen]);

  return {
    isOpen,
    isMoving,
    ref: drawerRef,
    toggle: () => setIsOpen((open) => !open),
    close: () => setIsOpen(false),
  };
}
