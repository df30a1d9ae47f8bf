import type { Plan } from '../../../../shared/contract';
import type { TimelineItem } from '../chat/timeline';

type Message = Extract<TimelineItem, { kind: 'message' }>;

/**
 * The conversation without what a plan's question steps already say. A question step ends its run with the
 * question as Deputy's answer, and the person's answer is the prompt of the run that goes on with the plan. The
 * step asks the question beside the box that answers it and then says "You answered: …": said again in the
 * conversation, the question read twice (with "Regenerate the answer" under it, which asks for a new plan, not an
 * answer), and after a reload the answer read as a request of its own, with the plan moved under it.
 *
 * `anchors`: the run whose request each plan sits under (see plans-store).
 */
export function withoutPlanDialogue(
  items: readonly TimelineItem[],
  plans: Record<string, Plan>,
  anchors: Record<string, string>,
  threadId: string | null,
): readonly TimelineItem[] {
  const mine = Object.values(plans).filter((plan) => plan.threadId === threadId);
  const said = (pick: (step: Plan['steps'][number]) => string | null) =>
    new Set(mine.flatMap((plan) => plan.steps.flatMap((step) => pick(step)?.trim() ?? [])));
  const questions = said((step) => step.question);
  const answers = said((step) => step.answer);
  if (questions.size === 0 && answers.size === 0) return items;

  const isQuestion = (item: TimelineItem): item is Message =>
    item.kind === 'message' &&
    item.role === 'assistant' &&
    !item.isStreaming &&
    questions.has(item.text.trim());
  // An answer only where a plan's run has it as its prompt: the same words asked later are a request of their own.
  const answeredIn = new Set(
    mine.flatMap((plan) => continuingRuns(plan, items, anchors[plan.id], isQuestion)),
  );
  const isAnswer = (item: TimelineItem) =>
    item.kind === 'message' &&
    item.role === 'user' &&
    item.runId !== null &&
    answeredIn.has(item.runId) &&
    answers.has(item.text.trim());
  const isSaid = (item: TimelineItem) => isQuestion(item) || isAnswer(item);
  return items.some(isSaid) ? items.filter((item) => !isSaid(item)) : items;
}

/**
 * The runs that went on with a plan after an answer: its latest run, and any run that carried out one of its steps
 * or asked one of its questions; never the run that made it.
 */
function continuingRuns(
  plan: Plan,
  items: readonly TimelineItem[],
  anchor: string | undefined,
  isQuestion: (item: TimelineItem) => item is Message,
): string[] {
  const actions = new Set(plan.steps.flatMap((step) => step.actionIds));
  const runs = new Set([plan.runId]);
  for (const item of items) {
    if (item.kind === 'tool' && actions.has(item.id)) runs.add(item.runId);
    else if (isQuestion(item) && item.runId !== null) runs.add(item.runId);
  }
  runs.delete(anchor ?? plan.runId);
  return [...runs];
}
