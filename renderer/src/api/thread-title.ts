import { LIMITS, type DeputyClient } from '../../../shared/contract';

/**
 * A conversation's title (a person knows it by that, not by its id): from the list's recent page, and for an
 * older conversation from the conversation itself (the contract has no lighter read of one conversation).
 */
export async function readThreadTitle(client: DeputyClient, threadId: string): Promise<string> {
  const page = await client.invoke('threads.list', { limit: LIMITS.threadListPage });
  return (
    page.threads.find((thread) => thread.id === threadId)?.title ??
    (await client.invoke('thread.get', { threadId })).thread.title
  );
}
