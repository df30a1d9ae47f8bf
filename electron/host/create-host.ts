import { join } from 'node:path';
import { createGeminiClient } from '../llm/gemini-client';
import type { ModelClient } from '../llm/model-client';
import { readModelConfig } from '../llm/model-config';
import { Store } from '../store/store';
import { ToolRegistry } from '../tools/registry';
import { createTaskTools } from '../tools/task-tools';
import type { Tool } from '../tools/tool';
import { Host } from './host';
import { monotonicClock } from './monotonic-clock';
import { SettingsService, type Env } from './settings';

export { Host };

export interface HostOptions {
  /** The app's data folder: Electron's userData, or DEPUTY_DATA_DIR / the OS data dir when headless. */
  dataDir: string;
  env: Env;
  /** Replaces the Gemini client built from `env` (the bench and engine tests use a scripted model). */
  modelClient?: () => ModelClient | null;
  now?: () => Date;
  /** More tools beside the built-in ones (an integration, a test's synthetic tool). */
  extraTools?: readonly Tool[];
  logError?: (message: string, error: unknown) => void;
}

export const DATABASE_FILE = 'deputy.db';

/** Composes the core (store, tools, model, settings) into the one Host both transports use. */
export async function createHost(options: HostOptions): Promise<Host> {
  const store = Store.open(join(options.dataDir, DATABASE_FILE));
  const now = options.now ?? monotonicClock();
  const registry = new ToolRegistry([...createTaskTools(store.tasks, now), ...(options.extraTools ?? [])]);
  const settings = new SettingsService(store.settings, options.env);
  return new Host({
    store,
    registry,
    settings,
    modelClient: options.modelClient ?? (() => geminiFromEnv(options.env)),
    now,
    logError: options.logError ?? ((message, error) => console.error(`[deputy] ${message}:`, error)),
  });
}

function geminiFromEnv(env: Env): ModelClient | null {
  const config = readModelConfig(env);
  if (!config.apiKey) return null;
  return createGeminiClient({ apiKey: config.apiKey, ...(config.baseUrl && { baseUrl: config.baseUrl }) });
}
