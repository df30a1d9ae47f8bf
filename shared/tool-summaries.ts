import type { CallNames } from './contract/run';
import { quoted as quote } from './quote-words';
import { slackChannelWords } from './target-words';

/**
 * One line per tool call in the product's words, for the chat's tool cards and anything else that lists calls
 * (notifications, the audit viewer): "Added task “buy milk”", "Drafted a reply to Sam", "Posted in #standup".
 * Each summary reads the call's arguments (and, once done, its result) defensively: they come from the model.
 */

type Args = Record<string, unknown>;
/** The same call said before it happened (waiting, running) and after. */
interface Phrases {
  todo: string;
  done: string;
}
/** What a summary reads beside the call's arguments, each when there is one. */
export interface SummaryOf {
  /** The call's result, once it has one. */
  result?: unknown;
  /** Agents named as the person knows them. */
  agentLabel?: AgentLabel;
  /** What the person knows the ids among the arguments by (a `tool_call` event's, a stored action's). */
  names?: CallNames;
}
type Summarizer = (args: Args, of: SummaryOf) => Phrases;

const MAX_QUOTED = 60;

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;

/** A few of the person's words, on one line, cut by code point (an emoji of two or more joined ones may be). */
const quoted = (value: unknown): string => {
  const words = text(value)?.replace(/\s+/g, ' ');
  if (!words) return '';
  const chars = Array.from(words);
  const short =
    chars.length > MAX_QUOTED
      ? `${chars
          .slice(0, MAX_QUOTED - 1)
          .join('')
          .trimEnd()}…`
      : words;
  return ` ${quote(short)}`;
};

/** "sam.lee@example.com" → "Sam": the way a person names whom they write to. */
function personOf(address: unknown): string | undefined {
  const email = text(address);
  if (!email) return undefined;
  const local = email.split('@')[0]?.split(/[._+-]/)[0] ?? email;
  return local ? local.charAt(0).toUpperCase() + local.slice(1) : email;
}

function people(list: unknown): string {
  const names = (Array.isArray(list) ? list : [list]).map(personOf).filter((name) => name !== undefined);
  if (names.length === 0) return 'someone';
  if (names.length === 1) return names[0] ?? 'someone';
  return `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/** One field of a result read from the model's side of things: anything, or nothing. */
const field = (value: unknown, key: string): unknown =>
  typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;

/**
 * A Slack channel as a card says it: "#general"; a channel given by Slack's id by the name Slack gave it, as its
 * approval reads ("#random", "Slack DM with carol.c"), from the call's names, else (once done) its result's
 * channel; else as what the id is ("Slack channel C0123ABCD", "Slack DM D0123ABCD").
 */
export function slackChannelNamed(value: unknown, { result, names = {} }: SummaryOf = {}): string {
  const given = text(value);
  if (!given) return 'a channel';
  const named = Object.hasOwn(names, given) ? text(names[given]) : undefined;
  return named ?? text(field(field(result, 'channel'), 'name')) ?? slackChannelWords(given);
}

const count = (result: unknown, key: string): number | undefined => {
  const list = (result as Record<string, unknown> | null)?.[key];
  return Array.isArray(list) ? list.length : undefined;
};

const found = (n: number | undefined, one: string, many: string): string =>
  n === undefined ? '' : ` (${n === 0 ? 'none' : n === 1 ? `1 ${one}` : `${n} ${many}`})`;

/** " for “milk”", or nothing when the call gave no words to look for ("Search your memories", not "…for"). */
const lookingFor = (value: unknown): string => {
  const words = quoted(value);
  return words && ` for${words}`;
};

const same = (phrase: string): Phrases => ({ todo: phrase, done: phrase });

/** 'task “Buy milk”' with its words; 'a task' without (a call not made yet, or a list of what a tool does). */
const thing = (noun: string, value: unknown, article = 'a'): string => {
  const words = quoted(value);
  return words ? `${noun}${words}` : `${article} ${noun}`;
};

/** Work handed to an agent (`who`: its display name where known), with the task in its words if given. */
const handTo = (who: string, task: unknown): Phrases => ({
  todo: `Hand${quoted(task) || ' a task'} to ${who}`,
  done: `Handed${quoted(task) || ' a task'} to ${who}`,
});

const SUMMARIES: Record<string, Summarizer> = {
  add_task: (a) => ({
    todo: `Add ${thing('task', a.description)}`,
    done: `Added ${thing('task', a.description)}`,
  }),
  list_tasks: (_a, { result: r }) => ({
    todo: 'Look at your tasks',
    done: `Looked at your tasks${found(count(r, 'tasks'), 'task', 'tasks')}`,
  }),
  update_task: (a) => ({
    todo: `Change ${thing('task', a.description)}`,
    done: `Changed ${thing('task', a.description)}`,
  }),
  // Their arguments hold only the task's id: once done, the result says which task it was.
  mark_task_complete: (_a, { result: r }) => {
    const words = quoted(field(field(r, 'task'), 'description'));
    return { todo: 'Mark a task done', done: words ? `Marked task${words} done` : 'Marked a task done' };
  },
  delete_task: (_a, { result: r }) => {
    const words = quoted(field(r, 'description'));
    return { todo: 'Delete a task', done: words ? `Deleted task${words}` : 'Deleted a task' };
  },
  save_memory: (a) => {
    const what = quoted(a.text) || ' something';
    return { todo: `Remember${what}`, done: `Remembered${what}` };
  },
  search_memory: (a, { result: r }) => ({
    todo: `Search your memories${lookingFor(a.query)}`,
    done: `Searched your memories${lookingFor(a.query)}${found(count(r, 'memories'), 'match', 'matches')}`,
  }),
  gmail_search: (a, { result: r }) => ({
    todo: `Search your mail${lookingFor(a.q)}`,
    done: `Searched your mail${lookingFor(a.q)}${found(count(r, 'messages'), 'email', 'emails')}`,
  }),
  gmail_thread_read: () => ({ todo: 'Read an email thread', done: 'Read an email thread' }),
  gmail_draft_create: (a) =>
    a.replyToMessageId
      ? { todo: `Draft a reply to ${people(a.to)}`, done: `Drafted a reply to ${people(a.to)}` }
      : { todo: `Draft an email to ${people(a.to)}`, done: `Drafted an email to ${people(a.to)}` },
  gmail_send: (a) =>
    a.replyToMessageId
      ? { todo: `Send a reply to ${people(a.to)}`, done: `Sent a reply to ${people(a.to)}` }
      : { todo: `Send an email to ${people(a.to)}`, done: `Sent an email to ${people(a.to)}` },
  calendar_search: (_a, { result: r }) => ({
    todo: 'Look at your calendar',
    done: `Looked at your calendar${found(count(r, 'events'), 'event', 'events')}`,
  }),
  check_availability: () => same('Look for free times'),
  query_context: (a) => {
    const what = quoted(a.name) || ' people and events';
    return { todo: `Look up${what}`, done: `Looked up${what}` };
  },
  calendar_event_create: (a) => ({
    todo: `Add ${thing('event', a.summary, 'an')} to your calendar`,
    done: `Added ${thing('event', a.summary, 'an')} to your calendar`,
  }),
  calendar_event_update: (a) => ({
    todo: `Change ${thing('event', a.summary, 'an')}`,
    done: `Changed ${thing('event', a.summary, 'an')}`,
  }),
  slack_channels: () => ({ todo: 'Look at your Slack channels', done: 'Looked at your Slack channels' }),
  slack_read: (a, of) => same(`Read ${slackChannelNamed(a.channel, of)}`),
  slack_send: (a, of) => {
    const where = slackChannelNamed(a.channel, of);
    return a.thread_ts
      ? { todo: `Reply in a thread in ${where}`, done: `Replied in a thread in ${where}` }
      : { todo: `Post in ${where}`, done: `Posted in ${where}` };
  },
  delegate_to_agent: (a) => handTo(text(a.agent) ?? 'an agent', a.task),
};

/** A tool's name, spaced out: "notes: search page" for an extension's `notes__search_page`. */
export const toolNameWords = (tool: string): string => tool.replace(/__/g, ': ').replace(/_/g, ' ');

/** A tool nobody wrote words for (an extension's): its name, spaced out. */
const generic = (tool: string): Phrases => {
  const name = toolNameWords(tool);
  return { todo: `Use ${name}`, done: `Used ${name}` };
};

/** Whether a tool has words of its own here (an extension's tools are named by `generic`). */
export const hasToolWords = (tool: string): boolean => Object.hasOwn(SUMMARIES, tool);

/** An agent's display name by its name; null for a name that is no agent (then the tool is no agent either). */
export type AgentLabel = (name: string) => string | null;

/**
 * The call's one-line summary: in the past once it is done, as what it would do before that. With `agentLabel`,
 * agents are named as the person knows them, and a call of an agent's own tool reads as handing it work.
 */
export function summarizeToolCall(tool: string, args: Args, isDone: boolean, of: SummaryOf = {}): string {
  const phrases = phrasesOf(tool, args ?? {}, of);
  return isDone ? phrases.done : phrases.todo;
}

function phrasesOf(tool: string, args: Args, of: SummaryOf): Phrases {
  const { agentLabel } = of;
  const agent = text(args.agent);
  if (tool === 'delegate_to_agent' && agent) return handTo(agentLabel?.(agent) ?? agent, args.task);
  const summarize = SUMMARIES[tool];
  if (summarize) return summarize(args, of);
  const label = agentLabel?.(tool);
  // An agent's tool takes the agent's inputs: its first text is taken as the task.
  if (label)
    return handTo(
      label,
      Object.values(args).find((value) => text(value) !== undefined),
    );
  return generic(tool);
}
