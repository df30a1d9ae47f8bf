import type { Ref } from 'react';

/**
 * What a person typed in an editor's own field (an allow-list address, a rule) and did not add yet. Save takes
 * it in with the rest of the form rather than dropping it: typed and saved, it is meant to be kept.
 */
export interface PendingDraft<T> {
  /**
   * The draft, checked: null when nothing is typed. When it cannot be added, the editor shows why beside the
   * field and puts the keyboard there, and this answers false, so Save saves nothing.
   */
  take(): { ok: true; value: T | null } | { ok: false };
  /** Empties the field once what it held is saved. */
  clear(): void;
}

/** The props an editor with a draft takes: where Save reaches it, and who hears whether something is typed. */
export interface DraftProps<T> {
  draftRef?: Ref<PendingDraft<T>>;
  onDraftChange?(hasDraft: boolean): void;
}
