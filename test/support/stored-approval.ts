import type { StoredApproval } from '../../electron/store/approvals-repo';

/** An approval of a post_note call as the store keeps it, waiting unless `changes` say otherwise. */
export function storedApproval(changes: Partial<StoredApproval> = {}): StoredApproval {
  return {
    id: 'ap-1',
    runId: 'run-1',
    threadId: 'th-1',
    actionId: 'act-1',
    tool: 'post_note',
    args: {},
    fingerprint: 'f',
    status: 'pending',
    level: 'confirm',
    reason: 'Your setting for “Post a note” is “Ask me first”.',
    rule: 'tool.confirm',
    risk: 'medium',
    preview: { title: 'Post a note', fields: [] },
    previewText: 'Post a note',
    intent: null,
    reasoning: null,
    confidence: null,
    assumptions: [],
    alwaysAllowScopes: [],
    createdAt: '2026-11-28T09:00:00.000Z',
    expiresAt: '2026-11-28T09:30:00.000Z',
    decidedAt: null,
    decisionNote: null,
    ...changes,
  };
}
