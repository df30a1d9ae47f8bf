import { z } from 'zod';
import { IntentAnalysis, intentQuestion, type RunIntent } from '../../shared/contract/intent';
import type { ToolDeclaration } from '../llm/model-client';
import type { CallScope } from './call-context';
import { answerControl } from './call-execution';
import type { CallPart } from './run-state';

/**
 * Spec 004's Intent Analyzer without a round trip of its own: the constitution asks the model to call
 * `state_intent` in its first turn, beside its first action (Gemini sends several calls in one turn), so a
 * one-line request costs no extra model call. A tool's own `analysis` argument (query_context's, a plan's)
 * counts as the same account. The engine records it with the run and, before anything of the turn runs, asks
 * the person instead of acting when the account is unsure or names someone it cannot resolve.
 */
export const STATE_INTENT = 'state_intent';

const parameters = z.toJSONSchema(IntentAnalysis, {
  target: 'draft-2020-12',
  io: 'input',
  unrepresentable: 'any',
}) as Record<string, unknown>;
delete parameters.$schema;

export const STATE_INTENT_DECLARATION: ToolDeclaration = {
  name: STATE_INTENT,
  description:
    'Your analysis of the request (spec 004): intent, how sure you are, what it names, what it needs, what you assume ' +
    'and why. Call it once, in your first turn, together with your first action or answer; it costs no extra turn. ' +
    'If you are unsure or it names someone you cannot tell apart, say so here: Deputy asks the person instead of acting.',
  parameters,
};

/** How a turn's call acts towards people: by their mail address (a mail, an invitation), or elsewhere (Slack). */
export type PeopleReach = 'mail' | 'elsewhere';

/** How the turn's calls would act towards the people the analysis names. */
export interface TurnReach {
  reachesPeople: boolean;
  /** A mail or an invitation: it needs each person's mail address. */
  reachesByMail: boolean;
  /**
   * Set when a later turn mails or invites without stating its intent again, and the run's earlier account is
   * checked once more: the addresses those calls name. The names were settled on the turn that stated them; what
   * is new is an address, so only a person known from Slack alone is asked about, and only when one of these
   * addresses is not one the person dealt with.
   */
  mailRecipients?: readonly string[];
}

/** How a turn's call acts towards people, and the addresses it names (its mail's recipients, its attendees). */
export interface CallReach {
  of: (call: CallPart) => PeopleReach | null;
  recipients: (call: CallPart) => string[];
}

/** Whether an entity the analysis names is unresolved: the question to ask, or null. Given by the context service. */
export type IntentCheck = (analysis: IntentAnalysis, turn: TurnReach) => string | null;

export interface IntentOfTurn {
  /** The turn's calls less `state_intent`: what may run. */
  calls: CallPart[];
  /** The model stated its intent this turn (alone or with other calls). */
  isStated: boolean;
  /** Set when the run must ask instead of acting on this turn. */
  question: string | null;
}

/** The account a call carries: `state_intent`'s arguments, or a tool's `analysis` argument. */
function accountOf(call: CallPart): IntentAnalysis | null {
  const candidate = call.name === STATE_INTENT ? call.args : call.args.analysis;
  if (candidate === undefined) return null;
  const parsed = IntentAnalysis.safeParse(candidate);
  return parsed.success ? parsed.data : null;
}

/**
 * Reads the turn's intent statement, records it (run row, policy log) and answers `state_intent` calls. Runs
 * inside the transaction that logs the turn, so what may run is decided together with it. A first turn with
 * no account records that the model gave none; the run goes on (nothing to enforce).
 */
export function takeIntent(
  scope: CallScope,
  calls: readonly CallPart[],
  turn: number,
  reach: CallReach,
): IntentOfTurn {
  const { deps } = scope;
  const others = calls.filter((call) => call.name !== STATE_INTENT);
  const stated = calls.find((call) => call.name === STATE_INTENT);
  const source = stated ?? calls.find((call) => accountOf(call) !== null);
  const analysis = source ? accountOf(source) : null;
  for (const call of calls.filter((each) => each.name === STATE_INTENT)) {
    if (call === stated && analysis) answerControl(scope, call, { recorded: true });
    else
      answerControl(scope, call, {
        error: {
          code: 'invalid_arguments',
          message: `${STATE_INTENT} takes the fields of its schema once per turn: intent, confidence, entities, impliedNeeds, clarificationNeeded, clarificationQuestions, assumptions.`,
        },
      });
  }
  if (!source || !analysis) {
    if (turn === 1) record(scope, { stated: false, turn });
    return {
      calls: others,
      isStated: stated !== undefined,
      question: laterMailQuestion(scope, others, turn, reach),
    };
  }
  const reaches = others.map(reach.of);
  const question =
    intentQuestion(analysis) ??
    deps.checkIntent?.(analysis, {
      reachesPeople: reaches.some((reach) => reach !== null),
      reachesByMail: reaches.includes('mail'),
    }) ??
    null;
  record(scope, { stated: true, analysis, source: source.name, turn, question });
  return { calls: others, isStated: true, question };
}

/**
 * A turn that mails or invites without an account of its own is held to the run's earlier one: a mail to someone
 * it named and knows only from Slack goes to an address the model made up or took from what it read, so the
 * person is asked for it, as on the turn that named them. Read only on such a turn (one row, by its key).
 */
function laterMailQuestion(
  scope: CallScope,
  calls: readonly CallPart[],
  turn: number,
  reach: CallReach,
): string | null {
  const { deps, spec } = scope;
  const mails = calls.filter((call) => reach.of(call) === 'mail');
  if (mails.length === 0 || !deps.checkIntent) return null;
  const earlier = deps.store.runs.intentOf(spec.runId);
  if (!earlier?.stated) return null;
  const question = deps.checkIntent(earlier.analysis, {
    reachesPeople: true,
    reachesByMail: true,
    mailRecipients: mails.flatMap(reach.recipients),
  });
  if (question) record(scope, { ...earlier, turn, question });
  return question;
}

function record(scope: CallScope, intent: RunIntent): void {
  const { deps, spec } = scope;
  deps.store.runs.setIntent(spec.runId, intent);
  deps.store.policy.audit({
    timestamp: deps.now().toISOString(),
    runId: spec.runId,
    actionId: null,
    tool: null,
    event: 'intent_analysis',
    decision: intent.stated && intent.question ? 'REQUEST_CLARIFICATION' : null,
    rule: null,
    reason: intent.stated
      ? `${intent.analysis.intent} (${Math.round(intent.analysis.confidence * 100)}% sure)`
      : 'The model did not state its intent.',
    detail: intent.stated ? { ...intent.analysis, question: intent.question } : { stated: false },
  });
}
