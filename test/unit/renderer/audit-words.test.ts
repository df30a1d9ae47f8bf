import { describe, expect, it } from 'vitest';
import {
  approverWords,
  CATEGORY_CHOICES,
  hasWhy,
  DECISION_CHOICES,
  decisionWords,
  authorityWords,
  noUndoWords,
  outputOf,
  riskWordsOf,
  STATUS_CHOICES,
  statusOf,
  timeWords,
  whatWords,
} from '../../../renderer/src/features/audit/audit-words';
import { diffRows } from '../../../renderer/src/features/audit/effect-words';
import { APPROVAL_EXPIRED_OUTCOME, shownStatusOf } from '../../../shared/audit-status';
import { expiredRunWords, PLAN_CANCELLED_WORDS } from '../../../shared/rejection-words';
import { AuditStatus, AuditStatusFilter, type AuditEntry } from '../../../shared/contract';

const withAuthority = (decision: string | null, rule: string | null, kind = 'tool_call'): AuditEntry =>
  ({ kind, authority: { decision, rule, approvedBy: null } }) as unknown as AuditEntry;

/** A rule's or an outcome's code, as the policy and the engine store it: capitals, colons, underscores. */
const CODE = /[A-Z]{2,}|[_:]|\b[a-z]+\.[a-z]+\b/;

describe('the audit viewer in words', () => {
  it('says who let a call happen in words, and that a read needed no one', () => {
    const by = (approvedBy: string | null) =>
      approverWords({
        authority: { decision: 'allow', rule: 'read_only', approvedBy },
      } as unknown as AuditEntry);
    expect(by('policy')).toBe('Not needed (it only reads)');
    expect(by('person')).toBe('You');
    expect(by(null)).toBe('—');
  });

  it('has a Why to show only when something of it was recorded', () => {
    const none = { intent: null, reasoning: null, confidence: null, target: null };
    expect(hasWhy(none)).toBe(false);
    expect(hasWhy({ ...none, confidence: 0.9 })).toBe(true);
    expect(hasWhy({ ...none, intent: 'Find the invoice' })).toBe(true);
  });

  it('says what the policy or the run decided, and the rule behind it, in words', () => {
    expect(decisionWords(withAuthority('require_approval', 'trust:supervised'))).toBe(
      'Asked you first · Supervised',
    );
    expect(decisionWords(withAuthority('INVOKE_TOOL', null))).toBe('Used tools');
    expect(decisionWords(withAuthority(null, null))).toBe('—');
    // A decision this viewer does not know yet is made readable, not hidden and not shown as a code.
    expect(decisionWords(withAuthority('SOMETHING_NEW', null))).toBe('Something new');
  });

  it('names the rule that decided about an action, and how a run ended, in words and never as a code', () => {
    const line = (entry: AuditEntry) => {
      const words = authorityWords(entry);
      return { label: words.ruleLabel, words: words.rule };
    };
    const rule = (code: string) => line(withAuthority('require_approval', code));
    const outcome = (code: string) => line(withAuthority('RESPOND_ONLY', code, 'decision'));
    expect(rule('trust:supervised')).toEqual({
      label: 'Rule',
      words: 'Every action waits for you (Supervised)',
    });
    expect(rule('autonomy:email.send').words).toBe('Your setting for “Send an email”');
    expect(rule('user_rule:0b1c').words).toBe('One of your rules covers it');
    expect(rule('plan_approval:p1#s2').words).toBe('You approved the plan it is part of');
    expect(outcome('AMBIGUITY:UNCLEAR_INTENT')).toEqual({
      label: 'Outcome',
      words: 'The request was unclear',
    });
    expect(outcome('SUCCESS:RESPONSE_GIVEN').words).toBe('Deputy answered');
    expect(outcome('ERROR:MODEL_SERVER_ERROR').words).toBe('Gemini had a problem');
    // Codes this viewer does not know yet: readable words, never the code in capitals.
    expect(rule('brand_new:some_thing').words).toBe('Brand new: some thing');
    expect(outcome('ERROR:SOMETHING_ODD').words).toBe('Something went wrong');
    expect(outcome('SURPRISE:NEW_KIND').words).toBe('Surprise: new kind');
    for (const code of [
      'kill_switch',
      'kill_switch:paused',
      'grant',
      'read_only',
      'rate:model_tokens',
      'rate:actions',
      'rate:external_calls',
      'confidence:clarify',
      'confidence:missing',
      'confidence:high_risk',
      'memory:standing_instruction',
      'trust:supervised',
      'trust:delegated',
      'trust:delegated_allowlist',
      'first_contact',
      'provenance:memory_derived',
      'provenance:only_in_content',
      'provenance:outside_request',
      'provenance:target_not_named',
      'resume.approval_missing',
      'resume.outcome_unknown',
      'sop.phase_requires_approval',
      'undo:changed_since',
      'undo:already_undone',
      'autonomy:task.create',
      'autonomy:notes__write',
    ]) {
      expect(rule(code).words).not.toMatch(CODE);
      expect(decisionWords(withAuthority('allow', code))).not.toMatch(CODE);
    }
    for (const code of [
      'SUCCESS:RESPONSE_GIVEN',
      'SUCCESS:TASK_COMPLETED',
      'SUCCESS:RECOVERED',
      'AMBIGUITY:UNCLEAR_INTENT',
      'REFUSAL:OUT_OF_SCOPE',
      'REFUSAL:RATE_LIMITED',
      'REFUSAL:INVALID_INPUT',
      'ERROR:MODEL_TIMEOUT',
      'ERROR:CANCELLED',
    ])
      expect(outcome(code).words).not.toMatch(CODE);
  });

  it('says what a run did in exact words, never “Acted” or “Finished a task”, in the table, the detail and the filter', () => {
    const run = (decision: string, outcome: string) =>
      ({
        kind: 'decision',
        status: 'completed',
        authority: { decision, rule: outcome, reason: null, approvedBy: null },
      }) as unknown as AuditEntry;
    const used = run('INVOKE_TOOL', 'SUCCESS:TASK_COMPLETED');
    expect(decisionWords(used)).toBe('Used tools');
    expect(authorityWords(used)).toEqual({
      decision: 'Used tools',
      ruleLabel: 'Outcome',
      rule: 'Deputy used tools, then answered',
    });
    // An agent's run that ended by handing its result back: not a task of the task list finished.
    const handed = run('COMPLETE_TASK', 'SUCCESS:TASK_COMPLETED');
    expect(decisionWords(handed)).toBe('Handed back its result');
    expect(authorityWords(handed).rule).toBe('The agent did what it was asked and handed back its result');
    const choices = DECISION_CHOICES.map(([, words]) => words);
    expect(choices).toContain('Run: Used tools');
    expect(choices).toContain('Run: Handed back its result');
    for (const words of [...choices, decisionWords(used), authorityWords(used).rule])
      expect(words).not.toMatch(/\bActed\b|acted|Finished a task/);
  });

  it('shows the reason recorded with a rule only where it says more than the rule', () => {
    const call = (rule: string, reason: string | null) =>
      ({
        kind: 'tool_call',
        authority: { decision: 'require_approval', rule, reason, approvedBy: null },
      }) as unknown as AuditEntry;
    // The policy's fixed sentence for the rule: the rule's words say it already.
    expect(
      authorityWords(call('trust:supervised', 'Supervised: every action waits for your approval.')),
    ).toEqual({
      decision: 'Asked you first',
      ruleLabel: 'Rule',
      rule: 'Every action waits for you (Supervised)',
    });
    expect(
      authorityWords(call('read_only', 'This only reads, so it needs no approval.')).reason,
    ).toBeUndefined();
    expect(
      authorityWords(call('trust:delegated', 'Delegated: this action is not covered by your allow-list.'))
        .reason,
    ).toBeUndefined();
    // The rule's words and more: said once, as the rule.
    const setting = authorityWords(
      call('autonomy:task.create', 'Your setting for “Add a task” is “Ask me first”.'),
    );
    expect([setting.rule, setting.reason]).toEqual([
      'Your setting for “Add a task” is “Ask me first”.',
      undefined,
    ]);
    // A reason that says what the rule does not (who, how sure, which pattern) stays.
    const stranger = authorityWords(
      call('first_contact', 'You have never written to sam@example.com before.'),
    );
    expect(stranger).toMatchObject({
      rule: 'You have not written to them before',
      reason: 'You have never written to sam@example.com before.',
    });
    const sure = authorityWords(
      call(
        'confidence:clarify',
        'Deputy was only 30% sure what you wanted, so it asked you instead of doing this.',
      ),
    );
    expect(sure.reason).toContain('30%');
    // No reason recorded: no line that says "—".
    expect(authorityWords(call('first_contact', null)).reason).toBeUndefined();
  });

  it('says what each run was asked, and a decision its outcome and status bear out', () => {
    const run = (decision: string, outcome: string, status: string, input: unknown) =>
      ({
        kind: 'decision',
        actionType: 'agent_decision',
        status,
        input,
        authority: { decision, rule: outcome, approvedBy: null },
      }) as unknown as AuditEntry;
    const asked = (request: string) => ({ decision: 'RESPOND_ONLY', outcome: 'x', intent: null, request });
    const answered = run(
      'RESPOND_ONLY',
      'SUCCESS:RESPONSE_GIVEN',
      'completed',
      asked('What does my\nweek look like?'),
    );
    expect(whatWords(answered)).toBe('Asked “What does my week look like?”');
    expect(decisionWords(answered)).toBe('Answered');
    const long = whatWords(
      run('RESPOND_ONLY', 'SUCCESS:RESPONSE_GIVEN', 'completed', asked('x'.repeat(300))),
    );
    expect(long).toBe(`Asked “${'x'.repeat(47)}…”`);
    // An entry from before runs kept their request, and one whose conversation was deleted, still show.
    const old = run('RESPOND_ONLY', 'SUCCESS:RESPONSE_GIVEN', 'completed', {
      decision: 'RESPOND_ONLY',
      intent: null,
    });
    expect(whatWords(old)).toBe('A request');
    expect(whatWords(run('RESPOND_ONLY', 'SUCCESS:RESPONSE_GIVEN', 'completed', null))).toBe('A request');

    // A run that failed says so, and why, whatever it had meant to do.
    const failed = run('RESPOND_ONLY', 'ERROR:MODEL_SERVER_ERROR', 'failed', asked('Hi'));
    expect(decisionWords(failed)).toBe('Failed: Gemini had a problem');
    expect(authorityWords(failed)).toEqual({
      decision: 'Failed: Gemini had a problem',
      ruleLabel: 'Outcome',
      rule: 'Gemini had a problem',
    });
    expect(statusOf(failed)).toEqual({ words: 'Failed', tone: 'failed' });
    expect(decisionWords(run('INVOKE_TOOL', 'ERROR:SOMETHING_NEW', 'failed', null))).toBe(
      'Failed: Something went wrong',
    );
    expect(decisionWords(run('RESPOND_ONLY', 'SOMETHING:ELSE', 'failed', null))).toBe('Failed');
    const stopped = run('RESPOND_ONLY', 'ERROR:CANCELLED', 'failed', null);
    expect([decisionWords(stopped), statusOf(stopped).words]).toEqual(['Stopped by you', 'Stopped']);
    // A run that ended because the person cancelled its plan was cancelled, as the chat and the plan's tree say.
    const cancelled = {
      ...run('INVOKE_TOOL', 'ERROR:CANCELLED', 'failed', null),
      errorMessage: PLAN_CANCELLED_WORDS,
      output: { summary: PLAN_CANCELLED_WORDS },
    };
    expect(decisionWords(cancelled)).toBe('Cancelled with its plan');
    expect(authorityWords(cancelled)).toEqual({
      decision: 'Cancelled with its plan',
      ruleLabel: 'Outcome',
      rule: 'You cancelled the plan',
    });
    // Its entry from before the run said it so, by its summary alone.
    const older = {
      ...run('INVOKE_TOOL', 'ERROR:CANCELLED', 'failed', null),
      output: { summary: 'Stopped: you cancelled the plan.' },
    };
    expect(decisionWords(older)).toBe('Cancelled with its plan');
    expect(decisionWords(run('REQUEST_CLARIFICATION', 'AMBIGUITY:UNCLEAR_INTENT', 'completed', null))).toBe(
      'Asked you to clarify',
    );
    expect(decisionWords(run('REFUSE', 'REFUSAL:RATE_LIMITED', 'failed', null))).toBe(
      'Refused: a limit was reached',
    );
    expect(decisionWords(run('REFUSE', 'REFUSAL:NEW_REASON', 'failed', null))).toBe('Refused');

    // An action the policy held back to ask a question, or blocked, was not done; it did not fail.
    const held = (decision: string) =>
      statusOf({ ...withAuthority(decision, 'confidence:clarify'), status: 'failed' } as AuditEntry);
    expect(held('clarify')).toEqual({ words: 'Not done', tone: 'neutral' });
    expect(held('deny')).toEqual({ words: 'Not done', tone: 'neutral' });
    expect(held('allow')).toEqual({ words: 'Failed', tone: 'failed' });
    // One whose approval was turned down did not fail either: it says what became of it.
    const turnedDown = {
      ...withAuthority('require_approval', 'trust:supervised'),
      status: 'failed',
      isTurnedDown: true,
    } as AuditEntry;
    expect(statusOf(turnedDown)).toEqual({ words: 'Turned down', tone: 'neutral' });
    expect(noUndoWords(turnedDown)).toBe('It was not done, so there is nothing to undo.');
    expect(statusOf({ ...turnedDown, isTurnedDown: false })).toEqual({ words: 'Failed', tone: 'failed' });
    // Nor one whose approval expired with nobody answering, nor the run that ended for it.
    const expired = { ...turnedDown, isTurnedDown: false, isExpired: true };
    expect(statusOf(expired)).toEqual({ words: 'Expired', tone: 'neutral' });
    expect(noUndoWords(expired)).toBe('It was not done, so there is nothing to undo.');
    const ended = run('INVOKE_TOOL', 'ERROR:APPROVAL_EXPIRED', 'failed', null);
    expect([decisionWords(ended), statusOf(ended)]).toEqual([
      'Stopped: an approval expired',
      { words: 'Expired', tone: 'neutral' },
    ]);
    // Nor does it read as something that could have been undone.
    const noUndo = (decision: string) =>
      noUndoWords({ ...withAuthority(decision, 'confidence:clarify'), status: 'failed' } as AuditEntry);
    expect(noUndo('clarify')).toBe('It was not done, so there is nothing to undo.');
    expect(noUndo('allow')).toBe('It did not go through, so there is nothing to undo.');
    const asStatus = (status: AuditEntry['status']) =>
      noUndoWords({ ...withAuthority('allow', 'trust:supervised'), status } as AuditEntry);
    expect(asStatus('pending')).toBe('It has not been done yet.');
    expect(asStatus('completed')).toBe('This cannot be undone.');
  });

  it('shows an output in the person’s words: a rejection not as the model was told it, an expiry as the chat says it', () => {
    const failed = (more: Partial<AuditEntry>) =>
      ({
        ...withAuthority('clarify', 'confidence:clarify'),
        output: null,
        status: 'failed',
        ...more,
      }) as AuditEntry;
    const toModel = 'The user rejected this action: They are plastic. Do not retry it unless they ask.';
    expect(outputOf(failed({ isTurnedDown: true, errorMessage: toModel }))).toBe(
      'You turned this down; it was not done. Your reason: They are plastic.',
    );
    // Turned down for the person (a new message, the plan cancelled): Deputy's words for it are already theirs.
    const cancelled = 'Cancelled: you cancelled the plan.';
    expect(outputOf(failed({ isTurnedDown: true, errorMessage: cancelled }))).toBe(cancelled);
    const at = 'The approval for "Add a task" expired at 2026-11-28T08:06:23.000Z, so Deputy did not do it.';
    expect(outputOf(failed({ isExpired: true, errorMessage: at }))).toBe(
      'The approval waited too long and expired, so Deputy did not do it.',
    );
    expect(outputOf(failed({ kind: 'undo', isExpired: true, errorMessage: at }))).toBe(
      'The approval waited too long and expired, so nothing was undone.',
    );
    // The policy's reason for what it held back is written for the person, and stays; so does a real error.
    const unsure = 'Deputy was only 30% sure what you wanted, so it asked you instead of doing this.';
    expect(outputOf(failed({ errorMessage: unsure }))).toBe(unsure);
    // Only what was turned down is read as a rejection.
    expect(outputOf(failed({ errorMessage: toModel }))).toBe(toModel);
    expect(outputOf(failed({ errorMessage: null }))).toBe('—');
    expect(outputOf({ ...failed({ isExpired: true }), output: { id: 't1' } })).toEqual({ id: 't1' });
  });

  it('shows the output of a run ended by an expired approval with the time it expired in the person’s time zone, not as stored', () => {
    const at = '2026-11-28T08:06:23.000Z';
    const summary = expiredRunWords('Add a task: Water the cactus', at);
    const run = (rule: string) =>
      ({
        ...withAuthority('INVOKE_TOOL', rule),
        kind: 'decision',
        status: 'failed',
        output: { summary },
        errorMessage: summary,
      }) as AuditEntry;
    const shown = outputOf(run(APPROVAL_EXPIRED_OUTCOME)) as { summary: string };
    expect(shown).toEqual({
      summary: `The approval for “Add a task: Water the cactus” expired at ${timeWords(at)}, so Deputy did not do it. Ask again if you still want it.`,
    });
    expect(shown.summary).not.toContain(at);
    // Any other run's output is shown as it was stored.
    expect(outputOf(run('ERROR:MODEL_TIMEOUT'))).toEqual({ summary });
    const other = { ...run(APPROVAL_EXPIRED_OUTCOME), output: { summary: 'Something else.' } };
    expect(outputOf(other)).toEqual({ summary: 'Something else.' });
  });

  it('offers every status the table shows as a Status filter, in the same words, and the filter its entries', () => {
    const entry = (status: AuditEntry['status'], ending: Partial<AuditEntry> = {}) =>
      ({ ...withAuthority('require_approval', 'trust:supervised'), status, ...ending }) as AuditEntry;
    const failedAs = (decision: string, rule: string, kind = 'tool_call') =>
      ({ ...withAuthority(decision, rule, kind), status: 'failed' }) as AuditEntry;
    const entries = [
      ...AuditStatus.options.map((status) => entry(status)),
      entry('failed', { isTurnedDown: true }),
      entry('failed', { isExpired: true }),
      failedAs('clarify', 'confidence:clarify'),
      failedAs('deny', 'kill_switch:paused', 'undo'),
      failedAs('RESPOND_ONLY', 'ERROR:CANCELLED', 'decision'),
      failedAs('INVOKE_TOOL', 'ERROR:APPROVAL_EXPIRED', 'decision'),
      failedAs('INVOKE_TOOL', 'ERROR:MODEL_TIMEOUT', 'decision'),
    ];
    const shown = new Map(STATUS_CHOICES);
    // What the table says of an entry is the choice that lists it (the store lists by shownStatusOf's tests).
    for (const one of entries) expect(shown.get(shownStatusOf(one))).toBe(statusOf(one).words);
    expect(new Set(entries.map((one) => statusOf(one).words))).toEqual(new Set(shown.values()));
    expect([...shown.keys()].sort()).toEqual([...AuditStatusFilter.options].sort());
  });

  it('offers every decision and category the store keeps as a filter, each with words, not a code', () => {
    const decisions = DECISION_CHOICES.map(([value]) => value);
    for (const code of [
      'allow',
      'require_approval',
      'deny',
      'clarify',
      'INVOKE_TOOL',
      'RESPOND_ONLY',
      'REQUEST_CLARIFICATION',
      'REFUSE',
      'COMPLETE_TASK',
    ])
      expect(decisions).toContain(code);
    const categories = CATEGORY_CHOICES.map(([value]) => value);
    for (const code of [
      'query',
      'compute',
      'create',
      'update',
      'delete',
      'draft',
      'external',
      'undo',
      'decision',
      'record',
    ])
      expect(categories).toContain(code);
    for (const [value, words] of [...DECISION_CHOICES, ...CATEGORY_CHOICES]) {
      expect(words).not.toBe(value);
      expect(words).not.toMatch(/_|^[A-Z]+$/);
    }
  });

  it('lists what an action changed in words, without the bookkeeping every stored thing carries', () => {
    const before = {
      id: 't1',
      description: 'Buy milk',
      dueDate: '2026-11-28',
      status: 'open',
      createdAt: 'a',
      updatedAt: 'b',
    };
    const after = { ...before, status: 'done', updatedAt: 'c', completed_at: '2026-11-27T10:00:00Z' };
    expect(diffRows(before, after)).toEqual([
      { field: 'description', label: 'Description', before: 'Buy milk', after: 'Buy milk', isChanged: false },
      { field: 'dueDate', label: 'Due date', before: '2026-11-28', after: '2026-11-28', isChanged: false },
      { field: 'status', label: 'Status', before: 'open', after: 'done', isChanged: true },
      {
        field: 'completed_at',
        label: 'Completed at',
        before: '—',
        after: '2026-11-27T10:00:00Z',
        isChanged: true,
      },
    ]);
    // A thing made from nothing: every field is new.
    expect(
      diffRows(null, { id: 'm1', key: 'sister' }).map((row) => [row.label, row.before, row.isChanged]),
    ).toEqual([['Key', '—', true]]);
  });

  it('names what an action was about, as its tool card does, so that two entries of one tool differ', () => {
    const entry = (kind: string, actionType: string, input: unknown, status = 'pending', output?: unknown) =>
      ({
        kind,
        actionType,
        input,
        status,
        output,
        authority: { decision: null, rule: null },
      }) as unknown as AuditEntry;
    const renew = { description: 'Renew the passport' };
    expect(whatWords(entry('tool_call', 'add_task', renew))).toBe('Add task “Renew the passport”');
    expect(whatWords(entry('tool_call', 'add_task', renew, 'completed'))).toBe(
      'Added task “Renew the passport”',
    );
    expect(whatWords(entry('tool_call', 'add_task', renew, 'rolled_back'))).toBe(
      'Added task “Renew the passport”',
    );
    expect(whatWords(entry('undo', 'add_task', { undoOf: 'x', args: renew }))).toBe(
      'Undo: Added task “Renew the passport”',
    );
    expect(whatWords(entry('tool_call', 'list_tasks', {}, 'completed', { tasks: [{}, {}] }))).toBe(
      'Looked at your tasks (2 tasks)',
    );
    expect(whatWords(entry('tool_call', 'gmail_send', { to: ['sam.lee@example.com'] }, 'failed'))).toBe(
      'Send an email to Sam',
    );
    // A tool Deputy has no words for (an extension's, or one from before) is named by its name and subject.
    const long = whatWords(
      entry('tool_call', 'send_email', { to: ['a@b.c'], subject: `  Plans\nfor ${'x'.repeat(80)}` }),
    );
    expect(long.startsWith('Send email “Plans for xxx')).toBe(true);
    expect(long.endsWith('…”')).toBe(true);
    expect(long.length).toBeLessThan(70);
    expect(whatWords(entry('record', 'settings_change', {}))).toBe('Settings change');
    // A call of an agent reads as its card in the chat: the agent by the name it has there, not "Helper".
    const agentLabel = (name: string) => (name === 'helper' ? 'Task helper' : null);
    const handed = entry('tool_call', 'helper', { task: 'look at the open tasks' }, 'completed');
    expect(whatWords(handed, agentLabel)).toBe('Handed “look at the open tasks” to Task helper');
    expect(
      whatWords(entry('tool_call', 'delegate_to_agent', { agent: 'helper', task: 'tidy' }), agentLabel),
    ).toBe('Hand “tidy” to Task helper');
    // Cut by code point: an emoji at the cut stays whole or goes whole, in both ways of naming.
    const emoji = whatWords(entry('tool_call', 'add_task', { description: `${'a'.repeat(58)}🎉🎉🎉` }));
    expect(emoji).toBe(`Add task “${'a'.repeat(58)}🎉…”`);
    const other = whatWords(entry('tool_call', 'note_down', { text: `${'a'.repeat(46)}🎉🎉🎉` }));
    expect(other).toBe(`Note down “${'a'.repeat(46)}🎉…”`);
    // Google's bookkeeping is not a change a person sees either.
    expect(diffRows({ etag: '1', updated: 'a' }, { etag: '2', updated: 'b' })).toEqual([]);
  });
});

describe('riskWordsOf', () => {
  it('says a known risk as the Risk filter does, and nothing for none or one it does not know', () => {
    expect(riskWordsOf({ risk: 'low' })).toBe('Low');
    expect(riskWordsOf({ risk: 'critical' })).toBe('Critical');
    expect(riskWordsOf({ risk: null })).toBeNull();
    expect(riskWordsOf({ risk: 'constructor' })).toBeNull();
    expect(riskWordsOf({ risk: '' })).toBeNull();
  });
});
