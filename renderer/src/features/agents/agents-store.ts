import { createStore, type StoreApi } from 'zustand/vanilla';
import type {
  AgentLoadErrorView,
  AgentSummary,
  Artifact,
  DeputyClient,
  LineageNode,
  RunStarted,
} from '../../../../shared/contract';
import { toClientError } from '../../api/client-error';
import { isNodeWorking } from './agent-tree';

export interface AgentsState {
  agents: AgentSummary[] | null;
  errors: AgentLoadErrorView[];
  folder: string;
  loadError: string | null;
  /** The last action's outcome in words, or why it failed. */
  outcome: string | null;
  error: string | null;
  /** Per top-level run of the open conversation: its agent tree, as last read. */
  lineage: Record<string, LineageNode[]>;
  artifacts: Record<string, Artifact[]>;
}

export interface AgentsActions {
  load(): Promise<void>;
  /** Follows changes to the agents (the folder is watched); returns the unsubscribe. */
  connect(): () => void;
  setEnabled(name: string, enabled: boolean): Promise<void>;
  importFile(fileName: string, text: string): Promise<void>;
  /** Starts an agent; rejects with the reason when its inputs do not fit. */
  run(
    name: string,
    inputs: Record<string, string | number | boolean>,
    threadId?: string,
  ): Promise<RunStarted>;
  /**
   * Reads a run's agent tree and the artifacts registered with it. `hasEnded`: the run is over. Once a run that was
   * over is read with every run in its tree over too, nothing of it can change, and it is not asked again.
   */
  readRun(runId: string, hasEnded?: boolean): Promise<void>;
}

export type AgentsStore = StoreApi<AgentsState & AgentsActions>;

export function createAgentsStore(client: DeputyClient): AgentsStore {
  return createStore<AgentsState & AgentsActions>()((set, get) => {
    const fail = (error: unknown) => set({ error: toClientError(error).message, outcome: null });
    const apply = (list: { agents: AgentSummary[]; errors: AgentLoadErrorView[]; folder: string }) =>
      set({ agents: list.agents, errors: list.errors, folder: list.folder, loadError: null });
    // Many rows may ask for the list at once (each card that names an agent): one read answers them all.
    let reading: Promise<void> | null = null;
    // Runs read whole after they ended: a long conversation asked two commands of each of its runs whenever one
    // more ended, 600 for 300 runs, almost all answering nothing.
    const settled = new Set<string>();
    // Each run's reads are numbered, and one answered after a newer one was drawn is dropped: a slow host answers
    // out of order, and a tree read while the run worked (no artifacts yet) replaced the one read as it ended,
    // which is never asked again.
    let readCount = 0;
    const drawnRead = new Map<string, number>();

    return {
      agents: null,
      errors: [],
      folder: '',
      loadError: null,
      outcome: null,
      error: null,
      lineage: {},
      artifacts: {},

      load() {
        reading ??= client
          .invoke('agents.list', {})
          .then(apply, (error: unknown) => set({ loadError: toClientError(error).message }))
          .finally(() => {
            reading = null;
          });
        return reading;
      },

      async setEnabled(name, enabled) {
        try {
          apply(await client.invoke('agents.setEnabled', { name, enabled }));
          // Said by the name the person knows it by, as its card shows it.
          const shown = get().agents?.find((agent) => agent.name === name)?.displayName ?? name;
          set({ outcome: `${shown} is ${enabled ? 'on' : 'off'}.`, error: null });
        } catch (error) {
          fail(error);
        }
      },

      async importFile(fileName, text) {
        try {
          const imported = await client.invoke('agents.import', { fileName, text });
          const dropped = imported.droppedTools.length
            ? ` Left out (Deputy has no such tool): ${imported.droppedTools.join(', ')}.`
            : '';
          set({ outcome: `Imported ${imported.agent.displayName}.${dropped}`, error: null });
          await get().load();
        } catch (error) {
          fail(error);
        }
      },

      // A list never read is not read on a change either: whoever needs it reads it then.
      connect: () =>
        client.on('agents.changed', {}, () => {
          if (get().agents !== null) void get().load();
        }),

      run(name, inputs, threadId) {
        return client.invoke('agents.run', { name, inputs, ...(threadId && { threadId }) });
      },

      async readRun(runId, hasEnded = false) {
        if (hasEnded && settled.has(runId)) return;
        const read = ++readCount;
        try {
          const [tree, made] = await Promise.all([
            client.invoke('runs.lineage', { runId }),
            client.invoke('artifacts.list', { runId }),
          ]);
          if ((drawnRead.get(runId) ?? 0) > read) return;
          drawnRead.set(runId, read);
          if (hasEnded && !tree.nodes.some(isNodeWorking)) settled.add(runId);
          set((state) => ({
            lineage: { ...state.lineage, [runId]: tree.nodes },
            artifacts: { ...state.artifacts, [runId]: made.artifacts },
          }));
        } catch {
          // A run deleted meanwhile simply shows no tree.
        }
      },
    };
  });
}
