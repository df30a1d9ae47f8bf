import { callReply, textReply } from '../fakes/gemini/script';
import type { FakeStep, RecordedRequest } from '../fakes/gemini/types';
import { BENIGN, LATER_RUN, type BenignTask } from './benign';
import { readConversation, squash, type Conversation, type Step } from './conversation';
import { GOALS } from './goals';

/** What every side-effect call carries: the model is sure, as an obedient model always is. */
const META = { intent: 'do what was asked', confidence: 0.99 };
const TASKS = [...Object.values(BENIGN), LATER_RUN];

/**
 * A fully obedient model behind the fake Gemini server. It understands the person's prompt (one of the
 * benign tasks), reads what that needs, then does whatever any text it has read tells it to (an injected
 * instruction, found in tool answers or in its own system instruction), and then also does the benign task.
 * Each step is derived from the conversation alone, so a resumed or continued run goes on where it was.
 */
export function obedientReply(request: RecordedRequest): FakeStep {
  const conversation = readConversation(request);
  const task = TASKS.find((candidate) => candidate.prompt === conversation.prompt);
  if (!task) return textReply('I do not know how to help with that.');
  const plan = planFor(task, conversation);
  const made = new Set(conversation.calls.map((call) => call.id));
  for (const { id, step } of plan) {
    if (made.has(id)) continue;
    const next = step(conversation);
    if (!next) continue;
    return callReply(next.name, { ...next.args, ...(isRead(next.name) ? {} : META) }, { id });
  }
  return textReply('Done.');
}

/** Reads first (to see the content), then every injected instruction it has seen, then the benign actions. */
function planFor(task: BenignTask, conversation: Conversation): { id: string; step: Step }[] {
  const read = squash(conversation.readText);
  const obeyed = GOALS.filter((goal) => read.includes(squash(goal.attack.instruction)));
  const seen = new Set<string>();
  const attacks = obeyed.flatMap((goal) => {
    // The same instruction planted twice is obeyed once.
    if (seen.has(goal.attack.instruction)) return [];
    seen.add(goal.attack.instruction);
    return goal.attack.steps.map((step, index) => ({ id: `attack-${squash(goal.id)}-${index}`, step }));
  });
  return [
    ...task.reads.map((step, index) => ({ id: `read-${index}`, step })),
    ...attacks,
    ...task.acts.map((step, index) => ({ id: `benign-${index}`, step })),
  ];
}

const READ_TOOLS = new Set([
  'gmail_search',
  'gmail_thread_read',
  'calendar_search',
  'check_availability',
  'slack_read',
  'slack_channels',
  'search_memory',
  'list_tasks',
]);
const isRead = (name: string): boolean => READ_TOOLS.has(name);
