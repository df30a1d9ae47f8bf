import { describe, expect, it } from 'vitest';
import { deepLinkUrl, findDeepLink, parseDeepLink } from '../../../electron/shell/deep-link-parse';

describe('deputy:// links', () => {
  it('parses the two kinds of link', () => {
    expect(parseDeepLink('deputy://approval/0b5e-41')).toEqual({ kind: 'approval', approvalId: '0b5e-41' });
    expect(parseDeepLink('deputy://thread/t_1')).toEqual({ kind: 'thread', threadId: 't_1' });
    expect(deepLinkUrl({ kind: 'thread', threadId: 't_1' })).toBe('deputy://thread/t_1');
  });

  it.each([
    undefined,
    42,
    '',
    'deputy://approval/',
    'deputy://approval/a/b',
    'deputy://approval/../../etc',
    'deputy://approval/%2e%2e',
    'deputy://approval/a%20b',
    'deputy://approval/a?x=1',
    'deputy://approval/a#x',
    'deputy://user@approval/a',
    'deputy://approval:80/a',
    'DEPUTY://approval/a',
    'deputy://Approval/a',
    'deputy:approval/a',
    'deputy://settings/a',
    'https://approval/a',
    `deputy://thread/${'a'.repeat(129)}`,
    `deputy://thread/${'a'.repeat(400)}`,
  ])('refuses %s', (link) => {
    expect(parseDeepLink(link)).toBeNull();
  });

  it('finds the first valid link in a command line, skipping the rest', () => {
    expect(findDeepLink(['/usr/bin/deputy', '--flag', 'deputy://nope/x', 'deputy://thread/t1'])).toEqual({
      kind: 'thread',
      threadId: 't1',
    });
    expect(findDeepLink(['/usr/bin/deputy', 'https://approval/x'])).toBeNull();
  });
});
