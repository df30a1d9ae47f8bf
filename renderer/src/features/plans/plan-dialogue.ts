import type { Plan } from '../../../../shared/contract';
import type { TimelineItem } from '../chat/timeline';

/**
 * The conversation without what a plan's question steps already say. A question step ends its run with the
 * question as Deputy's answer, and the person's answer is the prompt of the run that goes on with the plan. The
 * step asks the question beside the box that answers it and then says "You answered: …": said again in the
 * conversation, the question read twice (with "Regenerate the answer" under it, which asks for a new plan, not an
 * answer), and after a reload the answer read as a request of its own, with the plan moved under it.
 *
 * Each plan leaves out only what its own runs said: the same words asked or answered elsewhere in the
 * conversation are Deputy's question, or the person's request, of their own.
 *
 * `anchors`: the run whose request each plan sits under (see plans-store).
 */
export function withoutPlanDialogue(
  items: readonly TimelineItem[],
  plans: Record<string, Plan>,
  anchors: Record<string, string>,
  threadId: string | null,
): readonly TimelineItem[] {
  const said = new Set(
    plansIn(plans, threadId).flatMap((plan) => planDialogue(plan, items, anchors[plan.id] ?? plan.runId)),
  );
  return said.size > 0 ? items.filter((item) => !said.has(item)) : items;
}

/**
 * The question step that says a message the conversation leaves out (see withoutPlanDialogue): the step asking
 * it, or the one the person answered with it. A search finds the message's words; this is where they are shown.
 */
export function stepSaying(
  messageId: string,
  items: readonly TimelineItem[],
  plans: Record<string, Plan>,
  anchors: Record<string, string>,
  threadId: string | null,
): { planId: string; stepId: string } | null {
  for (const plan of plansIn(plans, threadId)) {
    const message = planDialogue(plan, items, anchors[plan.id] ?? plan.runId).find(
      (item) => item.id === messageId,
    );
    if (message?.kind !== 'message') continue;
    const words = message.text.trim();
    const step = plan.steps.find(
      (candidate) => (message.role === 'user' ? candidate.answer : candidate.question)?.trim() === words,
    );
    if (step) return { planId: plan.id, stepId: step.id };
  }
  return null;
}

const plansIn = (plans: Record<string, Plan>, threadId: string | null): Plan[] =>
  Object.values(plans).filter((plan) => plan.threadId === threadId);

/** The messages of one plan's question steps: each question where one of its runs asked it, and each answer. */
function planDialogue(plan: Plan, items: readonly TimelineItem[], madeIn: string): TimelineItem[] {
  const texts = (pick: (step: Plan['steps'][number]) => string | null) =>
    new Set(plan.steps.flatMap((step) => pick(step)?.trim() ?? []));
  const questions = texts((step) => step.question);
  const answers = texts((step) => step.answer);
  if (questions.size === 0 && answers.size === 0) return [];
  const says = (item: TimelineItem, role: 'user' | 'assistant', words: ReadonlySet<string>) =>
    item.kind === 'message' &&
    item.role === role &&
    !item.isStreaming &&
    item.runId !== null &&
    words.has(item.text.trim());

  // The runs that held the plan: the one that made it, the one it is with now, those that made its calls, and
  // those whose request is one of its answers (a run that goes on with it is started with the answer).
  const calls = new Set(plan.steps.flatMap((step) => step.actionIds));
  const callRuns = items.flatMap((item) => (item.kind === 'tool' && calls.has(item.id) ? [item.runId] : []));
  const held = new Set([madeIn, plan.runId, ...callRuns]);
  for (const item of items) if (says(item, 'user', answers) && item.runId !== null) held.add(item.runId);
  const asked = items.filter((item) => says(item, 'assistant', questions) && held.has(item.runId ?? ''));

  // An answer only where a run that went on with the plan has it as its prompt: its latest run, one that made its
  // calls or asked its questions; never the run that made it. The same words asked later are a request of their own.
  const wentOn = new Set([plan.runId, ...callRuns, ...asked.flatMap((item) => item.runId ?? [])]);
  wentOn.delete(madeIn);
  const answered = items.filter((item) => says(item, 'user', answers) && wentOn.has(item.runId ?? ''));
  return [...asked, ...answered];
}
