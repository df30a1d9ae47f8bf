import type { ActionKind } from '../../shared/contract/policy';

/**
 * What kinds of action the person's own words ask for, judged without a plan: each kind has the words a person
 * uses to ask for it. It is deliberately generous (any of the words is enough), because it only has to tell
 * "the person asked for something like this" from "nothing the person said points here", which is what an
 * action steered by something the assistant read looks like.
 */
const ASKING_WORDS: Record<ActionKind, readonly string[]> = {
  'email.send': [
    'send',
    'reply',
    'respond',
    'answer',
    'email',
    'e-mail',
    'mail',
    'forward',
    'write',
    'tell',
    'let',
    'inform',
    'notify',
    'follow up',
    'confirm',
    'thank',
    'ask',
    'invite',
  ],
  'email.draft': [
    'draft',
    'compose',
    'prepare',
    'write',
    'reply',
    'respond',
    'answer',
    'email',
    'e-mail',
    'mail',
    'forward',
    'tell',
    'let',
    'follow up',
    'thank',
    'ask',
  ],
  'calendar.create': [
    'schedule',
    'book',
    'meeting',
    'meet',
    'event',
    'calendar',
    'invite',
    'set up',
    'arrange',
    'appointment',
    'call with',
    'block',
    'slot',
    'lunch',
    'dinner',
    'coffee',
  ],
  'calendar.update': [
    'move',
    'reschedule',
    'change',
    'update',
    'rename',
    'shift',
    'push',
    'postpone',
    'cancel',
    'invite',
    'add',
    'remove',
    'location',
    'title',
    'describe',
    'description',
    'agenda',
    'bring forward',
    'extend',
    'shorten',
  ],
  'task.create': ['task', 'todo', 'to-do', 'remind', 'reminder', 'follow up', 'track', 'note down', 'jot'],
  'task.update': [
    'task',
    'todo',
    'to-do',
    'done',
    'complete',
    'finish',
    'mark',
    'tick',
    'check off',
    'update',
    'change',
    'rename',
    'edit',
    'due',
  ],
  'task.delete': ['delete', 'remove', 'clear', 'drop', 'get rid', 'clean up'],
  'slack.send': [
    'slack',
    'post',
    'channel',
    '#',
    'message',
    'tell',
    'share',
    'announce',
    'ping',
    'reply',
    'let',
    'dm',
    'thread',
  ],
  'memory.save': [
    'remember',
    'memorize',
    'memorise',
    'note',
    'keep in mind',
    "don't forget",
    'do not forget',
    'save',
    'from now on',
    'always',
    'never',
    'prefer',
  ],
};

/** At the start of a word, so "task" matches "tasks" and "mail" matches "mailbox", but not "gmail". */
const wordStart = (word: string): RegExp =>
  word === '#' ? /#/u : new RegExp(`(^|[^\\p{L}\\p{N}])${word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'u');

const ASKING: Record<ActionKind, RegExp[]> = Object.fromEntries(
  Object.entries(ASKING_WORDS).map(([kind, words]) => [kind, words.map(wordStart)]),
) as Record<ActionKind, RegExp[]>;

/** Whether the person's request (lower case) asks for this kind of action. */
export function isAskedFor(kind: ActionKind, request: string): boolean {
  return ASKING[kind].some((pattern) => pattern.test(request));
}

const STOP_WORDS = new Set([
  'the',
  'and',
  'with',
  'for',
  'from',
  'this',
  'that',
  'your',
  'about',
  'meeting',
  'event',
  'call',
  'task',
  'sync',
  'weekly',
  'daily',
  'team',
  'review',
  'notes',
]);

/** The words of a target's name that could tell it apart: four letters or more, not a common word. */
export function significantWords(label: string): string[] {
  const words = label.toLowerCase().match(/[\p{L}\p{N}]{4,}/gu) ?? [];
  return [...new Set(words.filter((word) => !STOP_WORDS.has(word)))];
}

/**
 * Whether the person's request names the thing an action changes ("the dentist appointment" for the event
 * "Dentist"). A name made only of common words cannot be told apart, so it counts as named when its words are.
 */
export function isTargetNamed(label: string, request: string): boolean {
  const words = significantWords(label);
  if (words.length === 0) {
    const plain = label.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? [];
    return plain.length > 0 && plain.every((word) => request.includes(word));
  }
  // The first five letters, so "dentist" is named by "dentist's" and "invoices" by "invoice".
  return words.some((word) => request.includes(word.slice(0, 5)));
}
