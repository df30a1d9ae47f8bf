import { useCallback, useEffect } from 'react';
import type { AgentLabel } from '../../../../shared/tool-summaries';
import { useAgents, useChat, useStores } from '../../stores';
import { isRunStopped } from '../chat/tool-state';

/**
 * Agents by the names the person knows them by (`displayName`), for the chat's cards and child rows. The list is
 * read once when first needed; a name not (yet) known is no agent, and a row falls back to the internal name.
 */
export function useAgentLabel(): AgentLabel {
  const { agents: store } = useStores();
  const agents = useAgents((state) => state.agents);
  const hasFailed = useAgents((state) => state.loadError !== null);
  useEffect(() => {
    if (agents === null && !hasFailed) void store.getState().load();
  }, [agents, hasFailed, store]);
  return useCallback(
    (name: string) => agents?.find((agent) => agent.name === name)?.displayName ?? null,
    [agents],
  );
}

/** Whether a run ended because it was stopped (with the run that started it, or by the person): not a failure. */
export function useIsRunStopped(runId: string | null): boolean {
  return useChat((state) => runId !== null && isRunStopped(state.conversation.items, runId));
}

/** Whether the child run this call started was stopped: the call did not fail, it was stopped with it. */
export function useIsChildStopped(actionId: string): boolean {
  const childRunId = useAgents(
    (state) =>
      Object.values(state.lineage)
        .flat()
        .find((node) => node.parentActionId === actionId)?.runId ?? null,
  );
  return useIsRunStopped(childRunId);
}
