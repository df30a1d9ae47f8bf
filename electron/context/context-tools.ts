import type { Store } from '../store/store';
import type { ToolRegistry } from '../tools/registry';
import type { Tool } from '../tools/tool';
import type { ContextItem } from './context-rank';
import type { ContextService } from './context-service';
import { createQueryContextTool } from './query-context-tool';

const RECENT_THREADS = 50;

/** `query_context` over the context index, the registry's read tools, and the person's conversations in the store. */
export function contextTool(
  context: ContextService,
  registry: ToolRegistry,
  store: Store,
  now: () => Date,
): Tool {
  return createQueryContextTool({
    contacts: context.contacts,
    registry,
    now,
    conversations: (query, limit) => recentConversations(store, query, limit),
    searchMemories: (query, limit, signal) => context.semantic.search(query, limit, signal),
    searchTasks: (query, limit, signal) => context.semanticTasks.search(query, limit, signal),
    directMessageWith: (user) => context.directMessageWith(user),
    searchMail: () => {
      const mail = context.mailSearch();
      return mail && ((query, limit, signal) => mail.search(query, limit, signal));
    },
  });
}

function recentConversations(store: Store, query: string | undefined, limit: number): ContextItem[] {
  const words = (query ?? '')
    .toLowerCase()
    .split(/\s+/)
    .filter((word) => word.length > 2);
  return store.threads
    .list(RECENT_THREADS)
    .threads.filter(
      (thread) => words.length === 0 || words.some((word) => thread.title.toLowerCase().includes(word)),
    )
    .slice(0, limit)
    .map((thread) => ({
      source: 'conversations',
      label: `your conversation “${thread.title}” with Deputy`,
      title: thread.title,
      detail: `last active ${thread.updatedAt}`,
      at: thread.updatedAt,
      isConfirmed: false,
    }));
}
