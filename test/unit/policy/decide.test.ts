import { describe, expect, it } from 'vitest';
import { decide } from '../../../electron/policy/decide';
import { isOnAllowlist, matchesPattern } from '../../../electron/policy/patterns';
import { DEFAULT_RATE_LIMITS, type PolicyContext, type PolicyTool } from '../../../electron/policy/types';
import { DEFAULT_AUTONOMY, type PolicyRule } from '../../../shared/contract/policy';
import {
  addTask,
  deleteTask,
  gmailDraft,
  gmailSend,
  listTasks,
  policyContext,
  slackSend,
} from './policy-tools';

const NOW = new Date('2026-11-21T12:00:00Z');

const context = (overrides: Partial<PolicyContext> = {}): PolicyContext =>
  policyContext({ now: NOW, ...overrides });

const sure = { confidence: 0.95, intent: 'do it', reasoning: 'asked', assumptions: [] };
const rule = (overrides: Partial<PolicyRule>): PolicyRule => ({
  id: 'r1',
  tool: 'gmail_send',
  field: 'recipients',
  pattern: '*@mycompany.com',
  effect: 'allow',
  expiresAt: null,
  createdAt: NOW.toISOString(),
  ...overrides,
});

type Case = [
  string,
  PolicyTool,
  Record<string, unknown>,
  Partial<PolicyContext>,
  string,
  string,
  Record<string, unknown>?,
];

const cases: Case[] = [
  // 1. kill switch
  ['kill switch denies a side effect', addTask, {}, { sideEffectsEnabled: false }, 'deny', 'kill_switch'],
  ['kill switch leaves reads alone', listTasks, {}, { sideEffectsEnabled: false }, 'allow', 'read_only'],
  ['a pause denies a side effect', addTask, {}, { sideEffectsPaused: true }, 'deny', 'kill_switch:paused'],
  ['a pause leaves reads alone', listTasks, {}, { sideEffectsPaused: true }, 'allow', 'read_only'],
  // 2. grants
  ['an ungranted tool is denied', addTask, {}, { grantedTools: new Set(['list_tasks']) }, 'deny', 'grant'],
  ['a granted tool goes on', listTasks, {}, { grantedTools: new Set(['list_tasks']) }, 'allow', 'read_only'],
  // 3. rate limits, at and under each limit
  [
    '10 actions in the last minute',
    addTask,
    {},
    { usage: { actionsLastMinute: 10, externalCallsLastHour: 0, modelTokensLastHour: 0 } },
    'deny',
    'rate:actions',
  ],
  [
    '9 actions in the last minute',
    addTask,
    {},
    { usage: { actionsLastMinute: 9, externalCallsLastHour: 0, modelTokensLastHour: 0 } },
    'allow',
    'autonomy:task.create',
  ],
  [
    '50 external calls this hour',
    slackSend,
    { channel: '#x' },
    { usage: { actionsLastMinute: 0, externalCallsLastHour: 50, modelTokensLastHour: 0 } },
    'deny',
    'rate:external_calls',
  ],
  [
    'token budget used up',
    listTasks,
    {},
    { usage: { actionsLastMinute: 0, externalCallsLastHour: 0, modelTokensLastHour: 100_000 } },
    'deny',
    'rate:model_tokens',
  ],
  [
    'a raised limit lets it through',
    addTask,
    {},
    {
      limits: { ...DEFAULT_RATE_LIMITS, actionsPerMinute: 20 },
      usage: { actionsLastMinute: 10, externalCallsLastHour: 0, modelTokensLastHour: 0 },
    },
    'allow',
    'autonomy:task.create',
  ],
  // 4. trust levels
  [
    'supervised asks for a task',
    addTask,
    {},
    { trustLevel: 'supervised' },
    'require_approval',
    'trust:supervised',
  ],
  [
    'supervised ignores the allow-list',
    gmailSend,
    { to: ['a@mycompany.com'] },
    { trustLevel: 'supervised' },
    'require_approval',
    'trust:supervised',
  ],
  [
    'supervised ignores rules',
    gmailSend,
    { to: ['a@mycompany.com'] },
    { trustLevel: 'supervised', rules: [rule({})] },
    'require_approval',
    'trust:supervised',
  ],
  [
    'delegated sends to allow-listed recipients',
    gmailSend,
    { to: ['a@mycompany.com'], cc: ['sam@partner.io'] },
    { trustLevel: 'delegated' },
    'allow',
    'trust:delegated_allowlist',
  ],
  [
    'delegated drafts to allow-listed recipients',
    gmailDraft,
    { to: ['a@mycompany.com'] },
    { trustLevel: 'delegated' },
    'allow',
    'trust:delegated_allowlist',
  ],
  [
    'delegated: one cc outside the list',
    gmailSend,
    { to: ['a@mycompany.com'], cc: ['x@gmail.com'] },
    { trustLevel: 'delegated' },
    'require_approval',
    'trust:delegated',
  ],
  [
    'delegated: a bcc outside the list',
    gmailSend,
    { to: ['a@mycompany.com'], bcc: ['spy@evil.io'] },
    { trustLevel: 'delegated' },
    'require_approval',
    'trust:delegated',
  ],
  [
    'delegated: look-alike domain',
    gmailSend,
    { to: ['a@mycompany.com.evil.io'] },
    { trustLevel: 'delegated' },
    'require_approval',
    'trust:delegated',
  ],
  [
    'delegated: no recipients at all',
    gmailSend,
    {},
    { trustLevel: 'delegated' },
    'require_approval',
    'trust:delegated',
  ],
  [
    'delegated asks for a task',
    addTask,
    {},
    { trustLevel: 'delegated' },
    'require_approval',
    'trust:delegated',
  ],
  [
    'delegated with a rule',
    slackSend,
    { channel: '#standup' },
    { trustLevel: 'delegated', rules: [rule({ tool: 'slack_send', field: 'channel', pattern: '#standup' })] },
    'allow',
    'user_rule:r1',
  ],
  // 5. autonomy levels under autonomous
  ['auto', addTask, {}, {}, 'allow', 'autonomy:task.create'],
  ['confirm', deleteTask, { id: '1' }, {}, 'require_approval', 'autonomy:task.delete'],
  [
    'review',
    addTask,
    {},
    { autonomy: { ...DEFAULT_AUTONOMY, 'task.create': 'review' } },
    'require_approval',
    'autonomy:task.create',
    { level: 'review' },
  ],
  [
    'notify',
    addTask,
    {},
    { autonomy: { ...DEFAULT_AUTONOMY, 'task.create': 'notify' } },
    'allow',
    'autonomy:task.create',
    { shouldNotify: true },
  ],
  [
    'email.send confirm by default',
    gmailSend,
    { to: ['a@mycompany.com'] },
    {},
    'require_approval',
    'autonomy:email.send',
  ],
  [
    'email.draft notify by default',
    gmailDraft,
    { to: ['a@mycompany.com'] },
    {},
    'allow',
    'autonomy:email.draft',
    { shouldNotify: true },
  ],
  // 6. argument-level rules
  [
    'a rule allows its scope',
    gmailSend,
    { to: ['a@mycompany.com', 'b@mycompany.com'] },
    { rules: [rule({})] },
    'allow',
    'user_rule:r1',
  ],
  [
    'a rule does not cover a stray cc',
    gmailSend,
    { to: ['a@mycompany.com'], cc: ['x@else.io'] },
    { rules: [rule({})] },
    'require_approval',
    'autonomy:email.send',
  ],
  [
    'an expired rule does nothing',
    gmailSend,
    { to: ['a@mycompany.com'] },
    { rules: [rule({ expiresAt: '2026-11-21T11:59:59.000Z' })] },
    'require_approval',
    'autonomy:email.send',
  ],
  [
    'an unexpired rule works',
    gmailSend,
    { to: ['a@mycompany.com'] },
    { rules: [rule({ expiresAt: '2026-11-21T13:00:00.000Z' })] },
    'allow',
    'user_rule:r1',
  ],
  [
    'a rule for another tool does nothing',
    gmailSend,
    { to: ['a@mycompany.com'] },
    { rules: [rule({ tool: 'gmail_draft_create' })] },
    'require_approval',
    'autonomy:email.send',
  ],
  [
    'a channel rule matches its channel only',
    slackSend,
    { channel: '#general' },
    { rules: [rule({ tool: 'slack_send', field: 'channel', pattern: '#standup' })] },
    'require_approval',
    'autonomy:slack.send',
  ],
  // 7. guards: first contact and high risk
  [
    'first contact stops an autonomous send',
    gmailSend,
    { to: ['new@stranger.io'] },
    { rules: [rule({ pattern: '*' })] },
    'require_approval',
    'first_contact',
  ],
  [
    'first contact in delegated too',
    gmailDraft,
    { to: ['new@mycompany.com.evil.io'] },
    { trustLevel: 'delegated', allowlist: ['*'] },
    'require_approval',
    'first_contact',
  ],
  [
    'first contact can be turned off',
    gmailSend,
    { to: ['new@stranger.io'] },
    { rules: [rule({ pattern: '*' })], requireApprovalForFirstContact: false },
    'allow',
    'user_rule:r1',
  ],
];

describe('decide', () => {
  it.each(cases)('%s', (_name, tool, args, overrides, kind, ruleName, extra) => {
    const decision = decide({ tool, args, meta: sure }, context(overrides));
    expect(decision).toMatchObject({ kind, rule: ruleName, ...extra });
    expect(decision.reason.length).toBeGreaterThan(0);
  });

  it('rate limiting is a refusal with its own outcome', () => {
    const decision = decide(
      { tool: addTask, args: {}, meta: sure },
      context({ usage: { actionsLastMinute: 10, externalCallsLastHour: 0, modelTokensLastHour: 0 } }),
    );
    expect(decision).toMatchObject({ kind: 'deny', outcome: 'REFUSAL:RATE_LIMITED' });
  });

  it.each([
    [0.69, 'clarify', 'confidence:clarify'],
    [0.7, 'allow', 'autonomy:task.create'],
  ])('confidence %f on a low-risk action → %s', (confidence, kind, ruleName) => {
    expect(decide({ tool: addTask, args: {}, meta: { confidence } }, context())).toMatchObject({
      kind,
      rule: ruleName,
    });
  });

  it.each([
    [0.89, 'require_approval', 'confidence:high_risk'],
    [0.9, 'allow', 'user_rule:r1'],
  ])('confidence %f on a high-risk action under autonomous → %s', (confidence, kind, ruleName) => {
    const decision = decide(
      { tool: gmailSend, args: { to: ['a@mycompany.com'] }, meta: { confidence } },
      context({ rules: [rule({})] }),
    );
    expect(decision).toMatchObject({ kind, rule: ruleName });
  });

  it('missing meta-parameters never let a side effect through silently', () => {
    expect(decide({ tool: addTask, args: {}, meta: {} }, context())).toMatchObject({
      kind: 'require_approval',
      rule: 'confidence:missing',
    });
  });

  it('low confidence asks for clarification even under supervised', () => {
    expect(
      decide({ tool: addTask, args: {}, meta: { confidence: 0.3 } }, context({ trustLevel: 'supervised' })),
    ).toMatchObject({
      kind: 'clarify',
    });
  });
});

describe('the reasons a person reads', () => {
  /** What a reason must never hold: a tool's or a setting's code, a variable's name, the model's view of itself. */
  const CODES = [
    /\b[a-z]+_[a-z_]+\b/, // add_task, sop phase or tool names as code
    /\b[A-Z]+_[A-Z_]+\b/, // AGENT_SIDE_EFFECTS_ENABLED
    /=/,
    /\b(?:email|task|calendar|slack|memory)\.[a-z]+\b/, // an action kind's code
    /"(?:auto|notify|confirm|review)"/,
    /The assistant|it should ask/,
  ];

  it.each(cases)('%s: a plain sentence', (_name, tool, args, overrides) => {
    const { reason } = decide({ tool, args, meta: sure }, context(overrides));
    for (const code of CODES) expect(reason).not.toMatch(code);
    expect(reason).toMatch(/^[A-Z“].*[.!?]$/s);
  });

  it('names the tool, the setting and how sure Deputy was in the product’s words', () => {
    const said = (tool: PolicyTool, meta: Record<string, unknown>, overrides: Partial<PolicyContext> = {}) =>
      decide({ tool, args: { description: 'Buy milk' }, meta }, context(overrides)).reason;
    expect(said(addTask, sure, { grantedTools: new Set(['list_tasks']) })).toBe(
      'This agent was not given the tool to add task “Buy milk”, so it did not do it.',
    );
    expect(said(addTask, sure, { sideEffectsEnabled: false })).toBe(
      'Deputy was started with side effects switched off, so it did not send, change or delete anything. To let it act, start Deputy again with side effects switched on.',
    );
    expect(said(addTask, { confidence: 0.3 })).toBe(
      'Deputy was only 30% sure what you wanted, so it asked you instead of doing this.',
    );
    expect(said(addTask, sure)).toBe('Your setting for “Add a task” is “Just do it”.');
    expect(said(deleteTask, sure)).toBe('Your setting for “Delete a task” is “Ask me first”.');
    expect(said(listTasks, sure)).toBe('This only reads, so it needs no approval.');
    expect(said(addTask, {})).toBe(
      'Deputy did not say how sure it is of what you want, so it asks you first.',
    );
  });

  it('names the rate limit reached as Settings → Permissions labels it', () => {
    const reached = (tool: PolicyTool, usage: PolicyContext['usage']) =>
      decide({ tool, args: {}, meta: sure }, context({ usage })).reason;
    const none = { actionsLastMinute: 0, externalCallsLastHour: 0, modelTokensLastHour: 0 };
    expect(reached(addTask, { ...none, actionsLastMinute: 10 })).toBe(
      'Rate limit reached: 10 actions a minute is the limit. Try again later, or raise “Actions per minute” in Settings → Permissions.',
    );
    expect(reached(slackSend, { ...none, externalCallsLastHour: 50 })).toContain(
      'raise “Calls to outside services per hour” in Settings → Permissions.',
    );
    expect(reached(listTasks, { ...none, modelTokensLastHour: 100_000 })).toContain(
      'raise “Model tokens per hour” in Settings → Permissions.',
    );
  });
});

describe('patterns', () => {
  it.each([
    ['ann@mycompany.com', '*@mycompany.com', true],
    ['ANN@MyCompany.com', '*@mycompany.com', true],
    ['ann@mycompany.com.evil.io', '*@mycompany.com', false],
    ['ann@mycompanyXcom', '*@mycompany.com', false],
    ['#standup', '#standup', true],
    ['#standup-2', '#standup', false],
  ])('%s ~ %s → %s', (value, pattern, expected) => {
    expect(matchesPattern(value, pattern)).toBe(expected);
  });

  it('reads domains and addresses on the allow-list', () => {
    expect(isOnAllowlist('a@x.io', ['@x.io'])).toBe(true);
    expect(isOnAllowlist('a@evilx.io', ['@x.io'])).toBe(false);
    expect(isOnAllowlist('a@sub.x.io', ['@x.io'])).toBe(false);
    expect(isOnAllowlist('sam@p.io', ['sam@p.io'])).toBe(true);
  });
});
