import type { WebClient } from '@slack/web-api';
import { z } from 'zod';
import { slackDmWords } from '../../../shared/target-words';
import { slackErrorCode } from './slack-errors';

/**
 * How long naming a conversation may hold up an approval. Past it the approval names the conversation by its id,
 * as it did before names were looked up; the answer, when it comes, is kept for the next approval.
 */
export const NAME_LOOKUP_MS = 1_500;
/** How many conversations' names a session keeps: the channels one person posts to are few. */
export const MAX_KNOWN_NAMES = 200;

/**
 * What may never be in a name Deputy shows: characters that reorder the words around them (bidirectional
 * controls, as in "Post to Slack DM with" + U+202E + a reversed name) or that break or end a line. A name from
 * Slack is what someone else typed, and it lands inside an approval's words.
 */
const UNSAFE_IN_NAME = /[\p{Cc}\u061C\u200E\u200F\u2028\u2029\u202A-\u202E\u2066-\u2069]/u;

/** A name that may be shown as it is, trimmed; null when there is none, or when it holds any of those. */
function shownName(name: string | null | undefined): string | null {
  const trimmed = name?.trim();
  return trimmed && !UNSAFE_IN_NAME.test(trimmed) ? trimmed : null;
}

/** display name, else real name, else handle; null when Slack no longer knows the user. */
export async function userName(client: WebClient, userId: string): Promise<string | null> {
  try {
    const { user } = await client.users.info({ user: userId });
    return shownName(user?.profile?.display_name) ?? shownName(user?.real_name) ?? shownName(user?.name);
  } catch (error) {
    if (slackErrorCode(error) === 'user_not_found') return null;
    throw error;
  }
}

/** What of conversations.info's answer names the conversation; anything else in it is not read. */
const InfoAnswer = z.object({
  channel: z.object({
    // A channel's name as Slack keeps it: lower case, no spaces, at most 80 characters; nothing that could
    // reorder the approval's words around it.
    name: z
      .string()
      .regex(/^[^\s#]{1,80}$/u)
      .refine((name) => shownName(name) === name)
      .optional(),
    is_im: z.boolean().optional(),
    is_mpim: z.boolean().optional(),
    user: z.string().optional(),
  }),
});

/** A person's name as the DM's words hold it: one line, not past what a display name can be. */
const PersonName = z
  .string()
  .trim()
  .regex(/^[^\p{Cc}]{1,80}$/u);

export interface ConversationNames {
  /**
   * A conversation given by Slack's id in words ("#random", "Slack DM with carol.c"), looked up in Slack with
   * conversations.info (and users.info for a DM's person), or null when Slack did not say within the time
   * limit, refused, or answered something else. It never throws: a name is a nicety, never a reason to fail.
   */
  lookUp(client: WebClient, id: string): Promise<string | null>;
  /** What an earlier look-up found for this id, without asking Slack. */
  known(id: string): string | null;
}

export interface ConversationNamesOptions {
  timeoutMs?: number;
  maxNames?: number;
}

/**
 * The names of the conversations a session's calls give by id, for what the person reads (an approval, the
 * audit trail): the model's arguments and Slack's answers to it stay as they are. Kept per connected client,
 * the most recently used `maxNames` of them; a failed look-up is not kept, so the next approval asks again.
 */
export function conversationNames(options: ConversationNamesOptions = {}): ConversationNames {
  const timeoutMs = options.timeoutMs ?? NAME_LOOKUP_MS;
  const maxNames = options.maxNames ?? MAX_KNOWN_NAMES;
  const names = new Map<string, string>();
  const asking = new Map<string, Promise<string | null>>();
  // A new client is a new sign-in, maybe to another workspace: what the old one named is not kept.
  let owner: WebClient | null = null;

  const remember = (id: string, words: string): void => {
    names.delete(id);
    names.set(id, words);
    const oldest = names.keys().next();
    if (names.size > maxNames && !oldest.done) names.delete(oldest.value);
  };

  const ask = (client: WebClient, id: string): Promise<string | null> => {
    const pending = asking.get(id);
    if (pending) return pending;
    const answer = wordsOf(client, id)
      .catch(() => null)
      .then((words) => {
        // Only its own entry: after a new sign-in the id may be asked again, and that question is still on its way.
        if (asking.get(id) === answer) asking.delete(id);
        if (words && owner === client) remember(id, words);
        return words;
      });
    asking.set(id, answer);
    return answer;
  };

  return {
    lookUp: (client, id) => {
      if (owner !== client) {
        owner = client;
        names.clear();
        asking.clear();
      }
      const words = names.get(id);
      if (words) {
        remember(id, words);
        return Promise.resolve(words);
      }
      return within(ask(client, id), timeoutMs);
    },
    known: (id) => names.get(id) ?? null,
  };
}

/** The conversation's words from Slack's answers; null when they do not name it. */
async function wordsOf(client: WebClient, id: string): Promise<string | null> {
  const parsed = InfoAnswer.safeParse(await client.conversations.info({ channel: id }));
  if (!parsed.success) return null;
  const { channel } = parsed.data;
  if (channel.is_mpim) return null;
  if (channel.is_im) {
    const person = channel.user ? PersonName.safeParse(await userName(client, channel.user)) : null;
    return person?.success ? slackDmWords(person.data) : null;
  }
  return channel.name ? `#${channel.name}` : null;
}

/** The answer, or null once `ms` have passed; the work goes on (Slack's client takes no AbortSignal). */
function within<T>(work: Promise<T | null>, ms: number): Promise<T | null> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), ms);
    timer.unref();
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}
