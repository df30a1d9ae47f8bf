import { useCallback, useEffect, useRef, useState, type KeyboardEvent } from 'react';

/**
 * A question asked in place of the button that asks it (Remove, Disconnect, a conversation's Delete): `keep` (Keep,
 * or Escape through `onKeyDown`, which Settings or the drawer then leaves alone) closes it and puts the keyboard back
 * on that button, `askButton`; `setIsAsking(false)` closes it without moving the keyboard.
 */
export function useInlineQuestion() {
  const [isAsking, setIsAsking] = useState(false);
  const askButton = useRef<HTMLButtonElement>(null);
  const shouldRefocus = useRef(false);

  useEffect(() => {
    if (!isAsking && shouldRefocus.current) {
      shouldRefocus.current = false;
      askButton.current?.focus();
    }
  }, [isAsking]);

  const keep = useCallback(() => {
    shouldRefocus.current = true;
    setIsAsking(false);
  }, []);
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      keep();
    }
  };
  return { isAsking, setIsAsking, keep, askButton, onKeyDown };
}
