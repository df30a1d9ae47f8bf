import { createContext, useCallback, useState } from 'react';

/**
 * Words put in the message box from elsewhere on the screen: an example tried from the welcome, or an earlier
 * question to ask again. `version` tells the same words put twice apart. With `keepsTyped`, what the person had
 * typed stays, above the words put in.
 */
export interface BoxDraft {
  text: string;
  version: number;
  keepsTyped?: boolean;
}

/** The screen's way to put a question in its message box to be checked and sent; null where no screen gives one. */
export const PutInBox = createContext<((text: string) => void) | null>(null);

/** The screen's draft for its Composer, and the two ways to fill it: in place of what was typed, or after it. */
export function useBoxDraft(): {
  draft: BoxDraft | undefined;
  replace: (text: string) => void;
  add: (text: string) => void;
} {
  const [draft, setDraft] = useState<BoxDraft>();
  const put = useCallback(
    (text: string, keepsTyped: boolean) =>
      setDraft((previous) => ({ text, version: (previous?.version ?? 0) + 1, keepsTyped })),
    [],
  );
  const replace = useCallback((text: string) => put(text, false), [put]);
  const add = useCallback((text: string) => put(text, true), [put]);
  return { draft, replace, add };
}

/**
 * The box's text once `draft` is put in it over `typed`. Asking an earlier question again keeps what was typed,
 * above it, so nothing the person wrote is lost; the same question put in twice is there once.
 */
export function boxTextWith(typed: string, draft: BoxDraft): string {
  if (!draft.keepsTyped || !typed.trim()) return draft.text;
  return typed.includes(draft.text) ? typed : `${typed.trimEnd()}\n\n${draft.text}`;
}
