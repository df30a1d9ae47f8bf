/** Caps applied to everything a client sends; defined once and used by both sides. */
export const LIMITS = {
  promptChars: 20_000,
  conversationTurns: 20,
  conversationTurnChars: 4_000,
  contextItems: 10,
  contextIdChars: 256,
  contextTitleChars: 300,
  contextSnippetChars: 2_000,
  contextMetaChars: 2_000,
  requestBodyBytes: 1_000_000,
  threadListPage: 50,
} as const;

export const LOOP_STEPS = { default: 8, min: 1, max: 15 } as const;

/** Runs that work at once (Settings → General → Runs); the rest wait in line. */
export const MAX_CONCURRENT_RUNS = { default: 4, min: 1, max: 32 } as const;

/**
 * Runs that may wait in that line at once; a new one past it is refused with `too_many`. A person starts a few at
 * a time; only a script starting runs in a loop, faster than they finish, meets this.
 */
export const MAX_QUEUED_RUNS = 256;

/** The longest a conversation can be kept by pruning's measure: a hundred years. */
export const PRUNE_DAYS = { min: 1, max: 36_500 } as const;
