import { createContext, useContext } from 'react';
import { useStore } from 'zustand';
import type { DeputyClient } from '../../shared/contract';
import {
  createApprovalsStore,
  type ApprovalsActions,
  type ApprovalsState,
  type ApprovalsStore,
} from './features/approvals/approvals-store';
import {
  createChatStore,
  type ChatActions,
  type ChatState,
  type ChatStore,
} from './features/chat/chat-store';
import {
  createSettingsStore,
  type SettingsState,
  type SettingsStore,
} from './features/settings/settings-store';

/** One store per feature, created once per connected client and handed down by context. */
export interface Stores {
  chat: ChatStore;
  settings: SettingsStore;
  approvals: ApprovalsStore;
}

export const createStores = (client: DeputyClient): Stores => ({
  chat: createChatStore(client),
  settings: createSettingsStore(client),
  approvals: createApprovalsStore(client),
});

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
