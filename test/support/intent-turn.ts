import { callsReply, textReply } from '../fakes/gemini/script';

/** Gemini's first turn stating its intent beside the task it adds, then its answer: the shape of a one-line request. */
export const statedIntentThenTask = () => [
  callsReply([
    {
      name: 'state_intent',
      args: {
        intent: 'add_task',
        confidence: 0.9,
        entities: [{ type: 'datetime', value: 'Friday' }],
        impliedNeeds: ['a due date on Friday'],
        clarificationNeeded: false,
        clarificationQuestions: [],
        assumptions: [{ statement: 'Friday is the 27th', evidence: ['“by Friday”, said on Monday'] }],
      },
    },
    {
      name: 'add_task',
      args: { description: 'Renew passport', due: '2026-11-27', intent: 'add', confidence: 0.9 },
    },
  ]),
  textReply('Added it.'),
];
