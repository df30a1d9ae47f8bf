import { useEffect, useState } from 'react';

const COPIED_MS = 2_000;

/**
 * Copies `text` to the clipboard and says "Copied" for a moment (also to screen readers). Quiet (dashed) beside
 * what it copies, as over a code block; `isQuiet: false` where it is a row's one action, as a button like the others.
 */
export function CopyButton({
  text,
  label,
  testId,
  isQuiet = true,
}: {
  text: string;
  label: string;
  testId: string;
  isQuiet?: boolean;
}) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const timer = setTimeout(() => setState('idle'), COPIED_MS);
    return () => clearTimeout(timer);
  }, [state]);
  const copy = () =>
    navigator.clipboard.writeText(text).then(
      () => setState('copied'),
      () => setState('failed'),
    );
  return (
    <button
      type="button"
      className={`button button--small${isQuiet ? ' button--quiet' : ''}`}
      data-testid={testId}
      aria-label={state === 'idle' ? label : undefined}
      onClick={() => void copy()}
    >
      <span aria-live="polite">
        {state === 'copied' ? 'Copied' : state === 'failed' ? 'Couldn’t copy' : 'Copy'}
      </span>
    </button>
  );
}
