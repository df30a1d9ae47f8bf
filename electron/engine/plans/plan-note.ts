import type { Plan } from '../../../shared/contract';

/** The start of Deputy's note on where the plan stands (the model's own words: not trusted, not content). */
export const PLAN_NOTE = '[PLAN ';
/** The start of what an earlier run's steps found, carried into a run that goes on with the plan (content). */
export const PLAN_FINDINGS = '[PLAN FINDINGS]';

/**
 * What the model is told of its plan with each turn's results: where every step stands, which failed and what
 * that skipped, and which can run now (together, when there are several). It holds no tool result (those are
 * in the results themselves, judged as content there): only the model's titles and Deputy's statuses.
 */
export function planNote(plan: Plan): string {
  const lines = plan.steps.map((step) => {
    const approval =
      step.status === 'ready' && step.needsApproval && !step.isApproved ? ' (needs approval)' : '';
    const retry =
      step.status === 'ready' && step.attempts > 0 ? ` (attempt ${step.attempts} failed, try again)` : '';
    return `- ${step.id} [${step.status}]${approval}${retry} ${step.title}`;
  });
  const ready = plan.steps.filter((step) => step.status === 'ready').map((step) => step.id);
  const skipped = plan.steps.filter((step) => step.status === 'skipped').map((step) => step.id);
  const next =
    ready.length > 1
      ? `Ready now: ${ready.join(', ')} — they do not wait for each other; call them together in one turn.`
      : ready.length === 1
        ? `Ready now: ${ready[0]}.`
        : 'No step is ready.';
  const skippedLine =
    skipped.length > 0 ? ` Skipped because a step they wait for failed: ${skipped.join(', ')}.` : '';
  return `${PLAN_NOTE}${plan.id}] ${plan.status}. ${next}${skippedLine}\n${lines.join('\n')}`;
}

/** For the run that takes the plan up again: the steps' results and the person's answers, as content. */
export function planFindings(plan: Plan): string {
  const lines = plan.steps.flatMap((step) => {
    const found = step.answer ? `the person answered: ${step.answer}` : step.result;
    return found ? [`- ${step.id}: ${found}`] : [];
  });
  return `${PLAN_FINDINGS} What the plan's steps found so far:\n${lines.join('\n')}`;
}
