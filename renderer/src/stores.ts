import { createContext, useContext } from 'react';
import { useStore } from 'zustand';
import type { DeputyClient } from '../../shared/contract';
import {
  createSideEffectsStore,
  type SideEffectsActions,
  type SideEffectsStore,
  type SideEffectsStoreState,
} from './features/side-effects/side-effects-store';
import {
  createAgentsStore,
  type AgentsActions,
  type AgentsState,
  type AgentsStore,
} from './features/agents/agents-store';
import {
  createApprovalsStore,
  type ApprovalsActions,
  type ApprovalsState,
  type ApprovalsStore,
} from './features/approvals/approvals-store';
import {
  createAuditStore,
  type AuditActions,
  type AuditState,
  type AuditStore,
} from './features/audit/audit-store';
import {
  createCardUndoStore,
  type CardUndoActions,
  type CardUndoState,
  type CardUndoStore,
} from './features/undo/card-undo-store';
import {
  createChatStore,
  type ChatActions,
  type ChatState,
  type ChatStore,
} from './features/chat/chat-store';
import {
  createConnectionsStore,
  type ConnectionsActions,
  type ConnectionsState,
  type ConnectionsStore,
} from './features/connections/connections-store';
import {
  createDataStore,
  type DataActions,
  type DataState,
  type DataStore,
} from './features/data/data-store';
import {
  createExtensionsStore,
  type ExtensionsActions,
  type ExtensionsState,
  type ExtensionsStore,
} from './features/extensions/extensions-store';
import {
  createMemoryStore,
  type MemoryActions,
  type MemoryState,
  type MemoryStore,
} from './features/memory/memory-store';
import {
  createPlansStore,
  type PlansActions,
  type PlansState,
  type PlansStore,
} from './features/plans/plans-store';
import {
  createSearchStore,
  type SearchActions,
  type SearchState,
  type SearchStore,
} from './features/chat/search-store';
import {
  createTasksStore,
  type TasksActions,
  type TasksState,
  type TasksStore,
} from './features/tasks/tasks-store';
import {
  createUsageStore,
  type UsageActions,
  type UsageState,
  type UsageStore,
} from './features/usage/usage-store';
import {
  createSettingsStore,
  type SettingsState,
  type SettingsStore,
} from './features/settings/settings-store';

/** One store per feature, created once per connected client and handed down by context. */
export interface Stores {
  chat: ChatStore;
  usage: UsageStore;
  tasks: TasksStore;
  search: SearchStore;
  settings: SettingsStore;
  approvals: ApprovalsStore;
  connections: ConnectionsStore;
  memory: MemoryStore;
  data: DataStore;
  extensions: ExtensionsStore;
  audit: AuditStore;
  /** Undo asked for from a chat card, by action. */
  cardUndo: CardUndoStore;
  sideEffects: SideEffectsStore;
  agents: AgentsStore;
  plans: PlansStore;
}

export function createStores(client: DeputyClient): Stores {
  const plans = createPlansStore(client);
  // The conversation is read once when it opens; its plans come from that reading.
  const chat = createChatStore(client, { onThreadRead: (detail) => plans.getState().fromThread(detail) });
  return {
    chat,
    usage: createUsageStore(client),
    tasks: createTasksStore(client),
    search: createSearchStore(client),
    settings: createSettingsStore(client),
    approvals: createApprovalsStore(client, {
      onChanged: (event) => chat.getState().approvalsChanged(event),
    }),
    connections: createConnectionsStore(client),
    memory: createMemoryStore(client),
    data: createDataStore(client),
    extensions: createExtensionsStore(client),
    audit: createAuditStore(client),
    cardUndo: createCardUndoStore(client),
    sideEffects: createSideEffectsStore(client),
    agents: createAgentsStore(client),
    plans,
  };
}

export function useSearch<T>(selector: (state: SearchState & SearchActions) => T): T {
  return useStore(useStores().search, selector);
}

export function useTasks<T>(selector: (state: TasksState & TasksActions) => T): T {
  return useStore(useStores().tasks, selector);
}

export function useUsage<T>(selector: (state: UsageState & UsageActions) => T): T {
  return useStore(useStores().usage, selector);
}

export const StoresContext = createContext<Stores | null>(null);

export function useStores(): Stores {
  const stores = useContext(StoresContext);
  if (!stores) throw new Error('StoresContext is missing: render inside <StoresContext value={…}>.');
  return stores;
}

export function useChat<T>(selector: (state: ChatState & ChatActions) => T): T {
  return useStore(useStores().chat, selector);
}

export function useSettings<T>(selector: (state: SettingsState) => T): T {
  return useStore(useStores().settings, selector);
}

export function useApprovals<T>(selector: (state: ApprovalsState & ApprovalsActions) => T): T {
  return useStore(useStores().approvals, selector);
}

export function useConnections<T>(selector: (state: ConnectionsState & ConnectionsActions) => T): T {
  return useStore(useStores().connections, selector);
}

export function useMemory<T>(selector: (state: MemoryState & MemoryActions) => T): T {
  return useStore(useStores().memory, selector);
}

export function useData<T>(selector: (state: DataState & DataActions) => T): T {
  return useStore(useStores().data, selector);
}

export function useExtensions<T>(selector: (state: ExtensionsState & ExtensionsActions) => T): T {
  return useStore(useStores().extensions, selector);
}

export function useAudit<T>(selector: (state: AuditState & AuditActions) => T): T {
  return useStore(useStores().audit, selector);
}

export function useCardUndo<T>(selector: (state: CardUndoState & CardUndoActions) => T): T {
  return useStore(useStores().cardUndo, selector);
}

export function useSideEffects<T>(selector: (state: SideEffectsStoreState & SideEffectsActions) => T): T {
  return useStore(useStores().sideEffects, selector);
}

export function useAgents<T>(selector: (state: AgentsState & AgentsActions) => T): T {
  return useStore(useStores().agents, selector);
}

export function usePlans<T>(selector: (state: PlansState & PlansActions) => T): T {
  return useStore(useStores().plans, selector);
}
