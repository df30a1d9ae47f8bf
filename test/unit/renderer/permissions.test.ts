import { describe, expect, it } from 'vitest';
import {
  checkAllowlistEntry,
  describeRuleExpiry,
  newRule,
  permissionsPatch,
  ruleFieldExample,
  toPermissionsValues,
} from '../../../renderer/src/features/settings/permissions';
import { sampleSettings } from './fixtures';

describe('allow-list entries', () => {
  it('takes an address or an @domain, in lower case, once', () => {
    expect(checkAllowlistEntry(' Sam@X.io ', [])).toEqual({ ok: true, value: 'sam@x.io' });
    expect(checkAllowlistEntry('@Example.co.uk', [])).toEqual({ ok: true, value: '@example.co.uk' });
    expect(checkAllowlistEntry('example.com', [])).toMatchObject({ ok: false });
    expect(checkAllowlistEntry('@localhost', [])).toMatchObject({ ok: false });
    expect(checkAllowlistEntry('sam@x', [])).toMatchObject({ ok: false });
    expect(checkAllowlistEntry('sam@x.io', ['sam@x.io'])).toMatchObject({
      ok: false,
      message: 'sam@x.io is already on the list.',
    });
  });
});

describe('permissionsPatch', () => {
  const settings = sampleSettings();

  it('sends nothing when nothing changed', () => {
    expect(permissionsPatch(settings, toPermissionsValues(settings))).toEqual({ ok: true, value: {} });
  });

  it('sends only what changed, autonomy and rate limits partially', () => {
    const values = toPermissionsValues(settings);
    values.trustLevel = 'autonomous';
    values.autonomy['email.send'] = 'review';
    values.allowlist = ['@x.io'];
    values.requireApprovalForFirstContact = false;
    values.approvalExpiryMinutes = '30';
    values.rateLimits.actionsPerMinute = '20';
    expect(permissionsPatch(settings, values)).toEqual({
      ok: true,
      value: {
        trustLevel: 'autonomous',
        autonomy: { 'email.send': 'review' },
        allowlist: ['@x.io'],
        requireApprovalForFirstContact: false,
        approvalExpiryMinutes: 30,
        rateLimits: { actionsPerMinute: 20 },
      },
    });
  });

  it('says which number is wrong', () => {
    const values = toPermissionsValues(settings);
    values.approvalExpiryMinutes = '0';
    expect(permissionsPatch(settings, values)).toEqual({
      ok: false,
      message: 'Approvals expire after (minutes): use a number from 1 to 10080.',
    });
    const tokens = toPermissionsValues(settings);
    tokens.rateLimits.modelTokensPerHour = '1.5';
    expect(permissionsPatch(settings, tokens)).toEqual({
      ok: false,
      message: 'Model tokens per hour: enter a whole number.',
    });
  });
});

describe('rules', () => {
  const now = new Date('2026-11-21T10:00:00.000Z');

  it('makes an allow rule that lasts an hour, a day, or until revoked', () => {
    const draft = { tool: ' gmail_send ', field: 'recipients', pattern: '*@x.io', duration: 'hour' as const };
    expect(newRule(draft, now, 'r1')).toEqual({
      ok: true,
      value: {
        id: 'r1',
        tool: 'gmail_send',
        field: 'recipients',
        pattern: '*@x.io',
        effect: 'allow',
        expiresAt: '2026-11-21T11:00:00.000Z',
        createdAt: '2026-11-21T10:00:00.000Z',
      },
    });
    expect(newRule({ ...draft, duration: 'day' }, now, 'r2')).toMatchObject({
      value: { expiresAt: '2026-11-22T10:00:00.000Z' },
    });
    expect(newRule({ ...draft, duration: 'none' }, now, 'r3')).toMatchObject({ value: { expiresAt: null } });
    expect(newRule({ ...draft, pattern: ' ' }, now, 'r4')).toMatchObject({ ok: false, field: 'pattern' });
    // The first empty field is the one named, so the form can put the keyboard there.
    expect(newRule({ ...draft, tool: '', pattern: '' }, now, 'r5')).toEqual({
      ok: false,
      message: 'Choose the action this rule allows.',
      field: 'tool',
    });
  });

  it("gives an example pattern of the field's own kind", () => {
    const draft = { tool: 'slack_send', field: 'channel', pattern: '', duration: 'hour' as const };
    expect(newRule(draft, now, 'r1')).toEqual({
      ok: false,
      message: 'Type the pattern to match, such as #team-*.',
      field: 'pattern',
    });
    expect(newRule({ ...draft, field: 'recipients' }, now, 'r2')).toMatchObject({
      message: 'Type the pattern to match, such as *@example.com.',
    });
    expect(ruleFieldExample('calendarId')).toBe('primary');
    // A field Deputy has no words for (an extension's): any value.
    expect(ruleFieldExample('folder')).toBe('*');
  });

  it('describes when a rule ends', () => {
    const rule = { id: 'r', tool: 't', field: 'f', pattern: 'p', effect: 'allow' as const, createdAt: '' };
    expect(describeRuleExpiry({ ...rule, expiresAt: null }, now.getTime())).toBe('no expiry');
    expect(describeRuleExpiry({ ...rule, expiresAt: '2026-11-21T09:00:00.000Z' }, now.getTime())).toBe(
      'expired',
    );
    expect(describeRuleExpiry({ ...rule, expiresAt: '2026-11-21T11:00:00.000Z' }, now.getTime())).toMatch(
      /^until /,
    );
  });
});
