import type { AgentLabel } from '../../../../shared/tool-summaries';

/** The filters set from an entry (its conversation, its run, its agent), shown as chips that take them off. */
export type ScopeKey = 'threadId' | 'runId' | 'agentId';

const LABELS: Record<ScopeKey, string> = { threadId: 'Conversation', runId: 'Run', agentId: 'Agent' };

/**
 * A scope chip's words and what it says it does: the conversation by its title and the agent by the name it goes
 * by everywhere else (its id only while no name is known); a run, which has no name, by its id's tail: the id's
 * start is the time it was made, shared by ids made close together.
 */
export function scopeWords(
  key: ScopeKey,
  value: string,
  known: { scopeTitle: string | null; agentLabel: AgentLabel },
): { text: string; label: string } {
  const kind = LABELS[key];
  if (key === 'threadId' && known.scopeTitle)
    return {
      text: `${kind}: ${known.scopeTitle}`,
      label: `Stop filtering by the conversation “${known.scopeTitle}”`,
    };
  if (key === 'agentId') {
    const name = known.agentLabel(value) ?? value;
    return { text: `${kind}: ${name}`, label: `Stop filtering by the agent “${name}”` };
  }
  return { text: `${kind}: …${value.slice(-8)}`, label: `Stop filtering by this ${kind.toLowerCase()}` };
}
