import { z } from 'zod';
import type { ToolRegistry } from '../tools/registry';
import type { ContentOrigin, Tool, ToolContext } from '../tools/tool';
import { rankContextRelevance, withinBudget, type ContextItem, type RankedItem } from './context-rank';
import { gatherFrom, type Gathered, type Unavailable } from './context-sources';
import type { ContactsIndex } from './contacts-index';
import { IntentAnalysis, intentQuestion, personNames } from './intent-analysis';
import { noMailAddressQuestion, resolvePerson, type PersonResolution } from './person-resolution';
import type { Memory } from '../../shared/contract';
import type { Task } from '../store/tasks-repo';
import type { SemanticSearch } from './semantic-index';
import type { MailItem } from './recent-mail';
import { mailItem, memoryItem, searchBy, taskItem } from './semantic-sources';

export const QUERY_CONTEXT = 'query_context';

const SOURCES = ['all', 'person', 'events', 'tasks', 'conversations', 'mail', 'slack', 'memories'] as const;
const DEFAULT_MAX_TOKENS = 1_500;
const DAY = 86_400_000;

const Input = z
  .object({
    type: z
      .enum(SOURCES)
      .describe('What to look up; "all" gathers people, events, tasks, memories and conversations.'),
    name: z
      .string()
      .trim()
      .min(1)
      .max(100)
      .optional()
      .describe('A person to resolve to an address, as the user named them.'),
    query: z.string().trim().min(1).max(200).optional().describe('Words to look for.'),
    reachBy: z
      .enum(['email', 'slack'])
      .optional()
      .describe('How the request would reach the people it names: "email" for a mail or an invitation.'),
    slackChannel: z
      .string()
      .trim()
      .min(1)
      .max(100)
      .optional()
      .describe('For type "slack": the channel to read.'),
    maxTokens: z
      .number()
      .int()
      .min(200)
      .max(4_000)
      .optional()
      .describe('How much context to return; 1500 by default.'),
    analysis: IntentAnalysis.describe('Your analysis of the request, before you act on it.'),
  })
  .strict();
type Input = z.infer<typeof Input>;

const Item = z.object({
  source: z.string(),
  label: z.string(),
  title: z.string(),
  detail: z.string(),
  at: z.string().nullable(),
  isConfirmed: z.boolean(),
  score: z.number(),
});
const Person = z.object({
  name: z.string(),
  address: z.string(),
  /** The same person on Slack, when their mail contact and Slack profile share a full name. */
  slack: z.string().optional(),
  isKnown: z.boolean(),
  evidence: z.array(z.string()),
});
const Output = z.object({
  intent: z.string(),
  people: z.array(
    z.object({
      name: z.string(),
      status: z.enum(['resolved', 'ambiguous', 'unknown']),
      person: Person.optional(),
      candidates: z.array(Person).optional(),
      question: z.string().optional(),
    }),
  ),
  results: z.array(Item),
  unavailable: z.array(z.object({ source: z.string(), reason: z.string() })),
  /** Set when the run must stop and ask: the intent is unclear, or a person is unknown or ambiguous. */
  clarification: z.object({ question: z.string() }).nullable(),
  /** How memories and tasks were searched: `fts` means by words only; `note` says why, or what is not embedded yet. */
  semanticSearch: z.object({ mode: z.enum(['hybrid', 'fts']), note: z.string().nullable() }).nullable(),
  isTruncated: z.boolean(),
});
type Output = z.infer<typeof Output>;

export interface QueryContextDeps {
  contacts: ContactsIndex;
  registry: ToolRegistry;
  /** The person's recent conversations with Deputy whose titles match, newest first. */
  conversations: (query: string | undefined, limit: number) => ContextItem[];
  /** Memories by meaning and by words (hybrid), or by words alone when semantic search cannot run. */
  searchMemories: (query: string, limit: number, signal: AbortSignal) => Promise<SemanticSearch<Memory>>;
  /** Open tasks by meaning and by words, the same way. */
  searchTasks: (query: string, limit: number, signal: AbortSignal) => Promise<SemanticSearch<Task>>;
  /** Recent mail by meaning and by words, or null when the person has not opted in to it (Settings → Data). */
  searchMail?: () =>
    ((query: string, limit: number, signal: AbortSignal) => Promise<SemanticSearch<MailItem>>) | null;
  /** The direct-message conversation with a Slack user (`slack:@U…`), or null; absent when Slack is not read. */
  directMessageWith?: (user: string) => Promise<string | null>;
  now: () => Date;
}

/** The request is a mail or an invitation: said so (`reachBy`), or, unsaid, in the intent's words ("send_email"). */
const isByMail = (input: Input): boolean =>
  input.reachBy === 'email' || (input.reachBy === undefined && /e-?mail|invit/i.test(input.analysis.intent));

/** Spec 004's `query_context`: people, events, tasks, conversations, mail, Slack and memories, ranked and budgeted. */
export function createQueryContextTool(deps: QueryContextDeps): Tool<Input, Output> {
  return {
    name: QUERY_CONTEXT,
    description:
      'Call this first for any request that names a person, a meeting, a task or something remembered. Give your ' +
      'analysis of the request; it resolves the people it names to addresses (with evidence) and returns the most ' +
      'relevant events, tasks, memories, conversations and mail, each with its source. If it says a question must ' +
      'be asked, the run ends with that question.',
    input: Input,
    output: Output,
    category: 'query',
    risk: 'low',
    hasSideEffects: false,
    provenance: (output) => [
      ...output.people.flatMap(peopleOrigin),
      ...output.results.map((item): ContentOrigin => ({
        label: item.label,
        text: `${item.title}\n${item.detail}`,
        isConfirmed: item.isConfirmed,
      })),
    ],
    clarification: (output) => output.clarification?.question ?? null,
    // The engine records `analysis` with the run as the model's intent statement (intent-statement.ts).
    execute: async (input, context) => {
      const unclear = intentQuestion(input.analysis);
      const empty: Omit<Output, 'clarification'> = {
        intent: input.analysis.intent,
        people: [],
        results: [],
        unavailable: [],
        semanticSearch: null,
        isTruncated: false,
      };
      if (unclear) return { ...empty, clarification: { question: unclear } };

      const names = [...new Set([...(input.name ? [input.name] : []), ...personNames(input.analysis)])];
      const people = names.map((name) => resolvePerson(deps.contacts, name));
      const open = people.find((person) => person.status !== 'resolved');
      if (open?.status === 'ambiguous' || open?.status === 'unknown') {
        return { ...empty, people: people.map(personView), clarification: { question: open.question } };
      }
      // A mail to someone known only from Slack: the index has no address to give, so the person is asked.
      const noAddress = isByMail(input) ? people.map(noMailAddressQuestion).find(Boolean) : undefined;
      if (noAddress)
        return { ...empty, people: people.map(personView), clarification: { question: noAddress } };
      const resolved = people.flatMap((person) => (person.status === 'resolved' ? [person.person] : []));
      const addresses = resolved.map((person) => person.address);
      const slackUsers = resolved.flatMap((person) =>
        [person.slack, person.address].filter(
          (address): address is string => address?.startsWith('slack:@') === true,
        ),
      );
      const query = input.query ?? input.analysis.entities.map((entity) => entity.value).join(' ');
      const wantsMemories = (input.type === 'memories' || input.type === 'all') && query !== '';
      const mailSearch =
        (input.type === 'mail' || input.type === 'all') && input.query ? deps.searchMail?.() : null;
      const [memories, tasks, mail, others] = await Promise.all([
        wantsMemories ? searchBy(deps.searchMemories, query, memoryItem, 'memory', context.signal) : null,
        input.query && (input.type === 'tasks' || input.type === 'all')
          ? searchBy(deps.searchTasks, input.query, taskItem, 'tasks', context.signal)
          : null,
        mailSearch && input.query
          ? searchBy(mailSearch, input.query, mailItem, 'gmail', context.signal)
          : null,
        gather(deps, input, { addresses, slackUsers }, context),
      ]);
      const gathered = [
        ...others,
        ...[memories, tasks, mail].flatMap((found) => (found ? [found.gathered] : [])),
      ];
      const items = gathered.flatMap((part) => ('items' in part ? part.items : []));
      const unavailable = gathered.flatMap((part): Unavailable[] =>
        'unavailable' in part ? [part.unavailable] : [],
      );
      const intentText = [
        input.analysis.intent,
        input.query ?? '',
        ...input.analysis.entities.map((e) => e.value),
      ].join(' ');
      const ranked = rankContextRelevance(items, { text: intentText, addresses }, deps.now());
      const budget = withinBudget<RankedItem>(ranked, input.maxTokens ?? DEFAULT_MAX_TOKENS);
      return {
        ...empty,
        people: people.map(personView),
        results: budget.kept,
        unavailable,
        clarification: null,
        semanticSearch: memories?.how ?? tasks?.how ?? mail?.how ?? null,
        isTruncated: budget.isTruncated,
      };
    },
  };
}

/** Every source the request asks for, at once; a source that fails is reported, not fatal (graceful degradation). */
function gather(
  deps: QueryContextDeps,
  input: Input,
  people: { addresses: string[]; slackUsers: string[] },
  context: ToolContext,
): Promise<Gathered[]> {
  // Calendar and mail are asked by mail address; a Slack user is read through the DMs with them.
  const addresses = people.addresses.filter((address) => !address.startsWith('slack:'));
  const wants = (type: Input['type']): boolean => input.type === type || input.type === 'all';
  const now = deps.now().getTime();
  const jobs: Promise<Gathered>[] = [];
  if (wants('events')) {
    const range = {
      timeMin: new Date(now - 14 * DAY).toISOString(),
      timeMax: new Date(now + 45 * DAY).toISOString(),
    };
    const queries = addresses.length > 0 ? addresses : [input.query];
    for (const q of queries)
      jobs.push(
        gatherFrom(deps.registry, 'calendar_search', { ...range, ...(q && { q }), maxResults: 25 }, context),
      );
  }
  // With words to look for, tasks are searched by meaning too (see searchBy); without, the open ones are listed.
  if (wants('tasks') && !input.query)
    jobs.push(gatherFrom(deps.registry, 'list_tasks', { status: 'open' }, context));
  if (wants('conversations')) jobs.push(Promise.resolve(conversations(deps, input.query)));
  const mailQuery = input.query ?? addresses.join(' ');
  if ((input.type === 'mail' || (input.type === 'all' && addresses.length > 0)) && mailQuery)
    jobs.push(gatherFrom(deps.registry, 'gmail_search', { q: mailQuery, maxResults: 10 }, context));
  if (input.type === 'slack' && input.slackChannel)
    jobs.push(gatherFrom(deps.registry, 'slack_read', { channel: input.slackChannel, limit: 30 }, context));
  if (wants('slack')) for (const user of people.slackUsers) jobs.push(directMessages(deps, user, context));
  return Promise.all(jobs);
}

/** The person's direct messages with someone resolved to a Slack user, read through `slack_read`. */
async function directMessages(deps: QueryContextDeps, user: string, context: ToolContext): Promise<Gathered> {
  try {
    const channel = deps.directMessageWith ? await deps.directMessageWith(user) : null;
    return channel
      ? await gatherFrom(deps.registry, 'slack_read', { channel, limit: 30 }, context)
      : { items: [] };
  } catch (error) {
    return {
      unavailable: { source: 'slack', reason: error instanceof Error ? error.message : String(error) },
    };
  }
}

function conversations(deps: QueryContextDeps, query: string | undefined): Gathered {
  try {
    return { items: deps.conversations(query, 10) };
  } catch (error) {
    return {
      unavailable: {
        source: 'conversations',
        reason: error instanceof Error ? error.message : String(error),
      },
    };
  }
}

function personView(resolution: PersonResolution): Output['people'][number] {
  if (resolution.status === 'resolved')
    return { name: resolution.name, status: 'resolved', person: resolution.person };
  if (resolution.status === 'ambiguous')
    return {
      name: resolution.name,
      status: 'ambiguous',
      candidates: resolution.candidates,
      question: resolution.question,
    };
  return { name: resolution.name, status: 'unknown', question: resolution.question };
}

/** Names and addresses in the index came from mail headers, invitations and Slack profiles: content, not the person's words. */
function peopleOrigin(person: Output['people'][number]): ContentOrigin[] {
  return [person.person, ...(person.candidates ?? [])].flatMap((found) =>
    found
      ? [
          {
            label: `the contacts index (${found.evidence[0] ?? 'your mail and calendar'})`,
            text: `${found.name} ${found.address}`,
          },
        ]
      : [],
  );
}
