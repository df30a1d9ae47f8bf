import type { ContactsIndex } from '../../electron/context/contacts-index';
import { createQueryContextTool } from '../../electron/context/query-context-tool';
import { ToolRegistry } from '../../electron/tools/registry';

/** query_context over a contacts index alone, for tests of how it resolves people: nothing else is searched. */
export function peopleOnlyQueryContext(
  contacts: ContactsIndex,
  now: Date,
): ReturnType<typeof createQueryContextTool> {
  return createQueryContextTool({
    contacts,
    registry: new ToolRegistry(),
    conversations: () => [],
    searchMemories: () => Promise.reject(new Error('not searched')),
    searchTasks: () => Promise.reject(new Error('not searched')),
    now: () => now,
  });
}
