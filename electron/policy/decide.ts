import { isOnAllowlist, matchesPattern } from './patterns';
import type { PolicyRule } from '../../shared/contract/policy';
import { PAUSED_MESSAGE, SWITCHED_OFF_MESSAGE } from '../../shared/contract/side-effects';
import { ACTION_KIND_LABELS, AUTONOMY_LABELS, RATE_LIMIT_LABELS } from '../../shared/setting-words';
import { targetWords } from '../../shared/target-words';
import { summarizeToolCall, toolNameWords } from '../../shared/tool-summaries';
import { steeredByContent } from './provenance';
import { standingInstruction } from './standing-instruction';
import type { AutonomyLevel } from '../../shared/contract';
import {
  CONFIDENCE,
  type PolicyCall,
  type PolicyContext,
  type PolicyDecision,
  type RateLimits,
} from './types';

/**
 * The policy: a pure function of the call and the user's settings. Every answer names the rule that fired.
 * Steps run in the order of precedence; the guards at the end (content, confidence, risk, first contact) can
 * only tighten what came before, never loosen it, so nothing the model read or wrote can widen what is allowed.
 */
export function decide(call: PolicyCall, context: PolicyContext): PolicyDecision {
  const { tool } = call;
  if (tool.hasSideEffects && !context.sideEffectsEnabled) {
    // No setting turns this back on: Deputy was started so (the README's AGENT_SIDE_EFFECTS_ENABLED).
    return deny('kill_switch', SWITCHED_OFF_MESSAGE);
  }
  if (tool.hasSideEffects && context.sideEffectsPaused === true) {
    return deny('kill_switch:paused', PAUSED_MESSAGE);
  }
  if (context.grantedTools !== 'all' && !context.grantedTools.has(tool.name)) {
    const what = lowerFirst(summarizeToolCall(tool.name, call.args, false));
    return deny('grant', `This agent was not given the tool to ${what}, so it did not do it.`);
  }
  const rateLimit = checkRateLimits(call, context);
  if (rateLimit) return rateLimit;
  if (!tool.hasSideEffects) return allow('read_only', 'This only reads, so it needs no approval.', false);

  const confidence = call.meta.confidence;
  if (confidence !== undefined && confidence < CONFIDENCE.clarifyBelow) {
    return {
      kind: 'clarify',
      rule: 'confidence:clarify',
      reason: `Deputy was only ${Math.round(confidence * 100)}% sure what you wanted, so it asked you instead of doing this.`,
    };
  }

  // A memory comes back in every later run: one that reads as an order would steer them all, so it is refused
  // at every trust level, whoever asked for it.
  const memoryText = tool.actionKind === 'memory.save' ? call.args.text : undefined;
  const instruction = typeof memoryText === 'string' ? standingInstruction(memoryText) : null;
  if (instruction) {
    return deny(
      'memory:standing_instruction',
      `Not saved: ${instruction}. Memories keep facts about you; an instruction to add recipients, links or actions is never kept.`,
    );
  }

  const base = trustAndAutonomy(call, context);
  const steering = steeredByContent(call, context);
  if (base.kind === 'require_approval' && steering) return { ...base, origins: steering.origins };
  if (base.kind !== 'allow') return base;
  // Content read in the run could have steered this: the person sees it first, at every trust level.
  if (steering) {
    return { ...requireApproval(steering.rule, 'confirm', steering.reason), origins: steering.origins };
  }
  return guards(call, context) ?? base;
}

function checkRateLimits(call: PolicyCall, context: PolicyContext): PolicyDecision | null {
  const { usage, limits } = context;
  if (usage.modelTokensLastHour >= limits.modelTokensPerHour) {
    return rateLimited(
      'rate:model_tokens',
      `the model-token budget of ${limits.modelTokensPerHour} per hour is used up`,
      'modelTokensPerHour',
    );
  }
  if (call.tool.hasSideEffects && usage.actionsLastMinute >= limits.actionsPerMinute) {
    return rateLimited(
      'rate:actions',
      `${limits.actionsPerMinute} actions a minute is the limit`,
      'actionsPerMinute',
    );
  }
  if (call.tool.isExternal && usage.externalCallsLastHour >= limits.externalCallsPerHour) {
    return rateLimited(
      'rate:external_calls',
      `${limits.externalCallsPerHour} calls to outside services an hour is the limit`,
      'externalCallsPerHour',
    );
  }
  return null;
}

function trustAndAutonomy(call: PolicyCall, context: PolicyContext): PolicyDecision {
  // A tool with no kind of its own (an MCP tool) asks unless the person set its autonomy themselves.
  const level =
    call.tool.autonomy ?? (call.tool.actionKind ? context.autonomy[call.tool.actionKind] : 'confirm');
  const approvalLevel = level === 'review' ? 'review' : 'confirm';
  if (context.trustLevel === 'supervised') {
    return requireApproval(
      'trust:supervised',
      approvalLevel,
      'Supervised: every action waits for your approval.',
    );
  }
  const rule = matchingRule(call, context);
  if (context.trustLevel === 'delegated') {
    if (rule) return allow(`user_rule:${rule.id}`, ruleWords(rule), false);
    if (isAllowlistedMail(call, context)) {
      return allow(
        'trust:delegated_allowlist',
        'Every recipient is one of your allowed recipients.',
        level === 'notify',
      );
    }
    return requireApproval(
      'trust:delegated',
      approvalLevel,
      'Delegated: this action is not covered by your allowed recipients or your rules.',
    );
  }
  if (rule) return allow(`user_rule:${rule.id}`, ruleWords(rule), false);
  if (level === 'confirm' || level === 'review') {
    return requireApproval(`autonomy:${autonomyName(call)}`, approvalLevel, settingWords(call, level));
  }
  return allow(`autonomy:${autonomyName(call)}`, settingWords(call, level), level === 'notify');
}

/** Which setting decided and how it is set, as Settings says them: "Your setting for “Add a task” is “Ask me first”." */
function settingWords(call: PolicyCall, level: AutonomyLevel): string {
  const { actionKind, name } = call.tool;
  const action = actionKind && !call.tool.autonomy ? ACTION_KIND_LABELS[actionKind] : toolNameWords(name);
  return `Your setting for “${action}” is “${AUTONOMY_LABELS[level]}”.`;
}

const lowerFirst = (text: string): string => text.charAt(0).toLowerCase() + text.slice(1);

/** The person's "always allow" rule that let a call through, in words: "Allowed by your rule for recipients matching “*@acme.com”." */
const ruleWords = (rule: PolicyRule): string =>
  `Allowed by your rule for ${rule.field} matching “${rule.pattern}”.`;

/** Which setting decided: the tool's own (an MCP tool's), its kind's, or none (`unknown`). */
function autonomyName(call: PolicyCall): string {
  if (call.tool.autonomy) return call.tool.name;
  return call.tool.actionKind ?? 'unknown';
}

function guards(call: PolicyCall, context: PolicyContext): PolicyDecision | null {
  const { tool, meta } = call;
  if (meta.confidence === undefined) {
    return requireApproval(
      'confidence:missing',
      'confirm',
      'Deputy did not say how sure it is of what you want, so it asks you first.',
    );
  }
  const isHighRisk = tool.risk === 'high' || tool.risk === 'critical';
  if (isHighRisk && meta.confidence < CONFIDENCE.highRiskApprovalBelow) {
    return requireApproval(
      'confidence:high_risk',
      'confirm',
      `This is a ${tool.risk}-risk action and Deputy is only ${Math.round(meta.confidence * 100)}% sure of it, so it needs your approval.`,
    );
  }
  if (context.requireApprovalForFirstContact) {
    // Everyone the effect reaches, not only the addresses the model wrote: an update tells every attendee.
    const strangers = reached(call).filter((address) => !context.isKnownRecipient(address));
    if (strangers.length > 0) {
      // In words: a Slack channel or person as what it is ("#general in Slack", "Slack user U0123"), not its address.
      const named = strangers.map((address) => {
        // `reached` lower-cases the addresses; a reach keeps them as the tool wrote them (slack:C0RANDOM01).
        const name = call.reach?.recipients.find(
          (recipient) => recipient.address.toLowerCase() === address,
        )?.name;
        return name ? `${name} (${targetWords(address)})` : targetWords(address);
      });
      return requireApproval(
        'first_contact',
        'confirm',
        `You have never written to ${named.join(', ')} before${isReachBeyondArgs(call) ? ` (${describeReach(call)})` : ''}.`,
      );
    }
  }
  return null;
}

/** Every address the effect reaches: the resolved reach when there is one, else the addresses in the call. */
function reached(call: PolicyCall): string[] {
  const addresses = call.reach
    ? call.reach.recipients.map((recipient) => recipient.address)
    : (call.tool.recipients?.(call.args) ?? []);
  return [...new Set(addresses.map((address) => address.toLowerCase()))];
}

function isReachBeyondArgs(call: PolicyCall): boolean {
  const written = new Set((call.tool.recipients?.(call.args) ?? []).map((address) => address.toLowerCase()));
  return reached(call).some((address) => !written.has(address));
}

function describeReach(call: PolicyCall): string {
  const roles = [...new Set((call.reach?.recipients ?? []).map((recipient) => recipient.role))];
  return `this reaches: ${roles.join(', ')}`;
}

/** Delegated trust lets mail go without asking only when everyone it reaches is on the allow-list. */
function isAllowlistedMail(call: PolicyCall, context: PolicyContext): boolean {
  const kind = call.tool.actionKind;
  if (kind !== 'email.send' && kind !== 'email.draft') return false;
  const recipients = reached(call);
  return recipients.length > 0 && recipients.every((address) => isOnAllowlist(address, context.allowlist));
}

/** A rule fits when it is for this tool, not expired, and every value in its scope matches its pattern. */
function matchingRule(call: PolicyCall, context: PolicyContext): PolicyRule | undefined {
  return context.rules.find((rule) => {
    if (!isRuleFor(rule.tool, call.tool.name)) return false;
    if (rule.expiresAt !== null && Date.parse(rule.expiresAt) <= context.now.getTime()) return false;
    const values = scopeValues(call, rule.field);
    return values.length > 0 && values.every((value) => matchesPattern(value, rule.pattern));
  });
}

/** A rule names one tool, or every tool of one MCP server as `server__*`. */
function isRuleFor(ruleTool: string, toolName: string): boolean {
  if (ruleTool.endsWith('__*')) return toolName.startsWith(ruleTool.slice(0, -1));
  return ruleTool === toolName;
}

function scopeValues(call: PolicyCall, field: string): string[] {
  // A rule for recipients covers a call only when it covers everyone the call reaches.
  if (field === 'recipients') return reached(call);
  const value = call.args[field];
  if (typeof value === 'string') return [value];
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return value;
  return [];
}

const allow = (rule: string, reason: string, shouldNotify: boolean): PolicyDecision => ({
  kind: 'allow',
  rule,
  reason,
  shouldNotify,
});
const deny = (rule: string, reason: string): PolicyDecision => ({
  kind: 'deny',
  rule,
  reason,
  outcome: 'REFUSAL:OUT_OF_SCOPE',
});
/** A limit reached, and the field that raises it as Settings → Permissions labels it. */
const rateLimited = (rule: string, detail: string, limit: keyof RateLimits): PolicyDecision => ({
  kind: 'deny',
  rule,
  reason: `Rate limit reached: ${detail}. Try again later, or raise “${RATE_LIMIT_LABELS[limit]}” in Settings → Permissions.`,
  outcome: 'REFUSAL:RATE_LIMITED',
});
const requireApproval = (
  rule: string,
  level: 'confirm' | 'review',
  reason: string,
): Extract<PolicyDecision, { kind: 'require_approval' }> => ({
  kind: 'require_approval',
  level,
  reason,
  rule,
});
