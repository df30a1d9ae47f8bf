import type { ActionKind } from '../../shared/contract/policy';
import { textHasTime, textHasToken, timesInArgs, tokensInArgs, type ContentToken } from './content-tokens';
import { copiedPhrase, isInOwnWords } from './copied-text';
import { isOnAllowlist } from './patterns';
import { isAskedFor, isTargetNamed } from './request-scope';
import type { ContentSource, PolicyCall, PolicyContext } from './types';

/** What a content rule found: the rule, and the sentences the approval card shows. */
export interface Steering {
  rule: string;
  reason: string;
  origins: string[];
}

const KIND_LABEL: Record<ActionKind, string> = {
  'email.send': 'sending mail',
  'email.draft': 'drafting mail',
  'calendar.create': 'creating an event',
  'calendar.update': 'changing an event',
  'task.create': 'adding a task',
  'task.update': 'changing a task',
  'task.delete': 'deleting a task',
  'slack.send': 'posting to Slack',
  'memory.save': 'remembering something',
};

const NOUN: Record<ContentToken['kind'], string> = {
  address: 'address',
  link: 'link',
  code: 'code',
  channel: 'channel',
};

const MAX_ORIGINS = 5;

/**
 * Once content from outside the person (a mail, an event, a Slack message, a tool's answer) has entered the
 * run, an action it could have steered waits for the person, whatever the trust level and autonomy say:
 * - its arguments carry an address, link, channel, code or time the person never wrote (only that content
 *   has it), or six words (or a whole short value) copied from that content;
 * - it is a kind of action the person did not ask for, or it changes a thing the person did not name;
 * - it saves a memory that is not in the person's own words.
 * Returns null when nothing from outside entered the run, or none of these holds.
 */
export function steeredByContent(call: PolicyCall, context: PolicyContext): Steering | null {
  const { sources, earlierReplies } = context.provenance;
  if (sources.length === 0) return echoedFromEarlierReplies(call, context);
  const findings: { rule: string; text: string }[] = [];
  // A memory comes back in every later run: that it is not the person's own words is said first.
  const memoryText = call.tool.actionKind === 'memory.save' ? call.args.text : undefined;
  if (typeof memoryText === 'string' && !isInOwnWords(memoryText, context.provenance.trusted)) {
    findings.push({
      rule: 'provenance:memory_derived',
      text: `This memory is not in your own words; it may come from ${readList(sources)}.`,
    });
  }
  for (const token of untrustedTokens(call, context)) {
    const source = [...sources, ...earlierReplies].find((candidate) => textHasToken(candidate.text, token));
    const noun = NOUN[token.kind];
    findings.push({
      rule: 'provenance:only_in_content',
      text: source
        ? `This ${noun} (${token.value}) appears only in ${source.label}.`
        : `This ${noun} (${token.value}) appears nowhere in what you wrote, and Deputy had read ${readList(sources)}.`,
    });
  }
  // A time the person never gave, found in what was read ("move it to 23:00"). A time found nowhere was
  // worked out (a free slot), and is not content's doing.
  for (const time of timesInArgs(call.args)) {
    if (textHasTime(context.provenance.trusted, time)) continue;
    const source = sources.find((candidate) => textHasTime(candidate.text, time));
    if (source)
      findings.push({
        rule: 'provenance:only_in_content',
        text: `This time (${time}) appears only in ${source.label}.`,
      });
  }
  // Copied words are said only when no address, link or code already told where the text came from.
  const copied = findings.length === 0 ? copiedPhrase(call.args, sources, context.provenance.trusted) : null;
  if (copied) {
    findings.push({
      rule: 'provenance:only_in_content',
      text: `This text (“${copied.phrase}”) is copied from ${copied.source.label}.`,
    });
  }
  const kind = call.tool.actionKind;
  const { request } = context.provenance;
  if (kind && !isAskedFor(kind, request)) {
    findings.push({
      rule: 'provenance:outside_request',
      text: `You did not ask for ${KIND_LABEL[kind]}; Deputy had read ${readList(sources)}.`,
    });
  }
  const target = call.reach?.target;
  if (target && !isTargetNamed(target, request)) {
    findings.push({
      rule: 'provenance:target_not_named',
      // Deputy read these first; whether the target came from them is not known, so it is not claimed.
      text: `You did not mention ${target}; Deputy had read ${readList(sources)} before choosing it.`,
    });
  }
  const [first] = findings;
  if (!first) return null;
  const origins = findings.slice(0, MAX_ORIGINS).map((finding) => finding.text);
  return {
    rule: first.rule,
    reason: `Content Deputy read may have steered this: ${first.text}`,
    origins,
  };
}

/**
 * Nothing was read in this run, but Deputy's earlier replies may repeat what it read before (a poisoned mail
 * it summarised): an address, link or code found only there is held like one found in the mail itself.
 */
function echoedFromEarlierReplies(call: PolicyCall, context: PolicyContext): Steering | null {
  const { earlierReplies } = context.provenance;
  const origins = untrustedTokens(call, context).flatMap((token) => {
    const reply = earlierReplies.find((candidate) => textHasToken(candidate.text, token));
    return reply ? [`This ${NOUN[token.kind]} (${token.value}) appears only in ${reply.label}.`] : [];
  });
  const [first] = origins;
  if (!first) return null;
  return {
    rule: 'provenance:only_in_content',
    reason: `Content Deputy read may have steered this: ${first}`,
    origins: origins.slice(0, MAX_ORIGINS),
  };
}

/** The tokens of the call the person never wrote and never used: not in their words, contacts or allow-list. */
function untrustedTokens(call: PolicyCall, context: PolicyContext): ContentToken[] {
  const { trusted } = context.provenance;
  // A channel named by id is a handle the assistant looked up; one named by name is checked like an address.
  const written: ContentToken[] = (call.tool.recipients?.(call.args) ?? []).flatMap(
    (address): ContentToken[] => {
      if (!address.startsWith('slack:')) return [{ kind: 'address', value: address.toLowerCase() }];
      const channel = address.slice('slack:'.length);
      return channel.startsWith('#') ? [{ kind: 'channel', value: channel }] : [];
    },
  );
  const tokens = [...written, ...tokensInArgs(call.args)];
  const seen = new Set<string>();
  return tokens.filter((token) => {
    const key = `${token.kind}:${token.value.toLowerCase()}`;
    if (seen.has(key)) return false;
    seen.add(key);
    if (textHasToken(trusted, token)) return false;
    if (token.kind === 'address')
      return !context.isKnownRecipient(token.value) && !isOnAllowlist(token.value, context.allowlist);
    if (token.kind === 'channel') return !context.isKnownRecipient(`slack:${token.value}`);
    return true;
  });
}

/** "a mail from a@x.io and the event “Sync”", naming at most two sources. */
function readList(sources: readonly ContentSource[]): string {
  const labels = [...new Set(sources.map((source) => source.label))];
  const named = labels.slice(0, 2).join(' and ');
  return labels.length > 2 ? `${named} and ${labels.length - 2} more` : named;
}
