import { isoTime } from '../../shared/iso-time';
import type { SettingsChoices } from './settings';
import type { RunFailure } from '../engine/model-failure';
import type { CallFacts, CheckedCall } from '../engine/run-deps';
import { decide } from '../policy/decide';
import { NO_CONTENT, type PolicyContext, type PolicyDecision, type RunProvenance } from '../policy/types';
import type { Store } from '../store/store';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** The policy's inputs at this moment: the user's settings and the rate-limit windows from the ledger. */
export function policyContext(
  settings: SettingsChoices,
  store: Store,
  now: Date,
  provenance: RunProvenance = NO_CONTENT,
  isDealtWith: (address: string) => boolean = () => false,
): PolicyContext {
  const since = (ms: number): string => isoTime(new Date(now.getTime() - ms));
  return {
    sideEffectsEnabled: settings.areSideEffectsEnabled,
    sideEffectsPaused: settings.areSideEffectsPaused,
    grantedTools: 'all',
    limits: settings.rateLimits,
    // Each window is counted only when the decision reads it (a read never reaches the action counts).
    usage: {
      get actionsLastMinute() {
        return store.policy.actionsSince(since(MINUTE));
      },
      get externalCallsLastHour() {
        return store.policy.externalCallsSince(since(HOUR));
      },
      get modelTokensLastHour() {
        return store.policy.tokensSince(since(HOUR));
      },
    },
    trustLevel: settings.trustLevel,
    autonomy: settings.autonomy,
    allowlist: settings.allowlist,
    rules: settings.rules,
    now,
    requireApprovalForFirstContact: settings.requireApprovalForFirstContact,
    // Known means the same everywhere: Deputy wrote to them, or the contacts index saw the person deal with them
    // (their own sent mail, meetings they organised or accepted) — never a mere appearance in mail read.
    isKnownRecipient: (address) => store.policy.isKnownRecipient(address) || isDealtWith(address),
    provenance,
  };
}

export function decideCall(
  call: CheckedCall,
  facts: CallFacts,
  settings: SettingsChoices,
  store: Store,
  now: Date,
  isDealtWith?: (address: string) => boolean,
): PolicyDecision {
  const { tool, input } = call;
  return decide(
    {
      tool: {
        name: tool.name,
        category: tool.category,
        risk: tool.risk,
        hasSideEffects: tool.hasSideEffects,
        ...(tool.actionKind && { actionKind: tool.actionKind }),
        ...(tool.autonomy && { autonomy: tool.autonomy() }),
        ...(tool.isExternal !== undefined && { isExternal: tool.isExternal }),
        ...(tool.recipients && { recipients: () => tool.recipients?.(input) ?? [] }),
      },
      args: call.args,
      meta: call.meta,
      reach: facts.reach,
    },
    policyContext(settings, store, now, facts.provenance, isDealtWith),
  );
}

/** Why a model call may not be made now (the hour's model-token budget is used up), or null when it may. */
export function modelBudgetRefusal(settings: SettingsChoices, store: Store, now: Date): RunFailure | null {
  const used = store.policy.tokensSince(isoTime(new Date(now.getTime() - HOUR)));
  if (used < settings.rateLimits.modelTokensPerHour) return null;
  return {
    code: 'rate_limited',
    message:
      'Rate limit reached: the model-token budget for this hour is used up. Try again later or raise the limit in Settings.',
  };
}
