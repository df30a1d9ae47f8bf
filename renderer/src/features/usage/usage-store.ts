import { createStore, type StoreApi } from 'zustand/vanilla';
import type { DeputyClient, ModelsListOutput, UsageDailyOutput } from '../../../../shared/contract';
import { toClientError } from '../../api/client-error';

export interface UsageState {
  /** The chat models the Gemini key can use, with a note when the list is empty or old. */
  models: ModelsListOutput | null;
  isLoadingModels: boolean;
  modelsError: string | null;
  daily: UsageDailyOutput | null;
  dailyError: string | null;
}

export interface UsageActions {
  loadModels(refresh?: boolean): Promise<void>;
  loadDaily(): Promise<void>;
}

export type UsageStore = StoreApi<UsageState & UsageActions>;

export function createUsageStore(client: DeputyClient): UsageStore {
  return createStore<UsageState & UsageActions>()((set) => ({
    models: null,
    isLoadingModels: false,
    modelsError: null,
    daily: null,
    dailyError: null,

    async loadModels(refresh = false) {
      set({ isLoadingModels: true, modelsError: null });
      try {
        set({ models: await client.invoke('models.list', refresh ? { refresh } : {}) });
      } catch (error) {
        set({ modelsError: toClientError(error).message });
      } finally {
        set({ isLoadingModels: false });
      }
    },

    async loadDaily() {
      try {
        set({ daily: await client.invoke('usage.daily', {}), dailyError: null });
      } catch (error) {
        set({ dailyError: toClientError(error).message });
      }
    },
  }));
}
