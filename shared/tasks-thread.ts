/**
 * The thread of the Tasks panel's changes: each is a run of its own there (so the policy, approvals, ledger and
 * audit trail treat it as any other), but it is not a conversation, so the conversation list leaves it out.
 * Apart from the contract so the renderer's first chunk can name it without the schemas.
 */
export const TASKS_THREAD_ID = 'deputy-tasks-panel';
