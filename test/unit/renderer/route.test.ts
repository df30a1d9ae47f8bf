import { describe, expect, it } from 'vitest';
import { joinHash, routeFromHash, splitHash } from '../../../renderer/src/route';

describe('routes in the address hash', () => {
  it('finds the approval window route', () => {
    expect(routeFromHash('#/approval/ap-1')).toEqual({ kind: 'approval', approvalId: 'ap-1' });
    expect(routeFromHash('#/approval/ap%201/')).toEqual({ kind: 'approval', approvalId: 'ap 1' });
    expect(routeFromHash('#/approval/ap-1&token=abc')).toEqual({ kind: 'approval', approvalId: 'ap-1' });
    expect(routeFromHash('')).toEqual({ kind: 'workspace' });
    expect(routeFromHash('#token=abc')).toEqual({ kind: 'workspace' });
    expect(routeFromHash('#/approval/')).toEqual({ kind: 'workspace' });
    expect(routeFromHash('#/approval/%E0%A4%A')).toEqual({ kind: 'workspace' });
  });

  it('finds the audit viewer, one entry in it, and a conversation to go back to', () => {
    expect(routeFromHash('#/audit')).toEqual({ kind: 'audit', entryId: null });
    expect(routeFromHash('#/audit/')).toEqual({ kind: 'audit', entryId: null });
    expect(routeFromHash('#/audit/act%201&token=x')).toEqual({ kind: 'audit', entryId: 'act 1' });
    expect(routeFromHash('#/audit/a/b')).toEqual({ kind: 'workspace' });
    expect(routeFromHash('#/thread/t-1')).toEqual({ kind: 'workspace', threadId: 't-1' });
    expect(routeFromHash('#/thread/%E0%A4%A')).toEqual({ kind: 'workspace' });
  });

  it('keeps the route when the token is taken out of the parameters', () => {
    const { path, params } = splitHash('#/approval/ap-1&token=abc&x=1');
    expect(path).toBe('/approval/ap-1');
    params.delete('token');
    expect(joinHash(path, params)).toBe('#/approval/ap-1&x=1');
    expect(joinHash(path, new URLSearchParams())).toBe('#/approval/ap-1');
    const plain = splitHash('#token=abc');
    expect(plain.path).toBe('');
    plain.params.delete('token');
    expect(joinHash(plain.path, plain.params)).toBe('');
  });
});

describe('the shell routes', () => {
  it('opens the quick prompt and one conversation', () => {
    expect(routeFromHash('#/quick')).toEqual({ kind: 'quick' });
    expect(routeFromHash('#/thread/t-1')).toEqual({ kind: 'workspace', threadId: 't-1' });
    expect(routeFromHash('#/thread/')).toEqual({ kind: 'workspace' });
    expect(routeFromHash('#/thread/%E0%A4%A')).toEqual({ kind: 'workspace' });
  });

  it('opens Settings → Connections over the workspace, and no other tab by address', () => {
    expect(routeFromHash('#/settings/connections')).toEqual({ kind: 'workspace', settings: 'connections' });
    expect(routeFromHash('#/settings/connections/&token=x')).toEqual({
      kind: 'workspace',
      settings: 'connections',
    });
    expect(routeFromHash('#/settings')).toEqual({ kind: 'workspace' });
    expect(routeFromHash('#/settings/general')).toEqual({ kind: 'workspace' });
    expect(routeFromHash('#/settings/connections/gemini')).toEqual({ kind: 'workspace' });
  });
});
