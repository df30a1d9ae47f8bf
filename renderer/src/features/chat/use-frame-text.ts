import { useEffect, useState } from 'react';

/**
 * While a message streams, its text as of the last animation frame: many deltas in one frame are drawn once.
 * A finished message shows its text at once.
 */
export function useFrameText(text: string, isStreaming: boolean): string {
  const [shown, setShown] = useState(text);
  useEffect(() => {
    if (!isStreaming) return;
    const frame = requestAnimationFrame(() => setShown(text));
    return () => cancelAnimationFrame(frame);
  }, [text, isStreaming]);
  return isStreaming ? shown : text;
}
