import { describe, expect, it } from 'vitest';
import { checkClientInput, MAX_INPUT_DEPTH } from '../../../electron/host/client-input';
import { createLoopbackGuard } from '../../../electron/server/loopback-guard';
import { decodePathPart, parseRequestTarget } from '../../../electron/server/request-target';

describe('request targets', () => {
  it('takes origin-form paths with their query', () => {
    const target = parseRequestTarget('/api/memories?q=a%20b&limit=5');
    expect(target?.path).toBe('/api/memories');
    expect(target?.query.get('q')).toBe('a b');
  });

  it.each(['http://127.0.0.1/api', '//host/x', '*', 'api/x', '', '/a b', '/\u0000', `/${'a'.repeat(9_000)}`])(
    'refuses %j',
    (raw) => expect(parseRequestTarget(raw)).toBeNull(),
  );

  it('decodes path segments, refusing malformed escapes, control characters and slashes', () => {
    expect(decodePathPart('abc%20d')).toBe('abc d');
    for (const part of ['%E0%A4%A', '%', '%00', 'a%2Fb', '%0a'])
      expect(() => decodePathPart(part)).toThrow(/path segment/);
  });
});

describe('client input', () => {
  const nested = (depth: number): unknown => (depth === 0 ? 1 : { a: nested(depth - 1) });

  it(`allows ${MAX_INPUT_DEPTH} levels and refuses one more`, () => {
    expect(() => checkClientInput(nested(MAX_INPUT_DEPTH))).not.toThrow();
    expect(() => checkClientInput(nested(MAX_INPUT_DEPTH + 1))).toThrow(/nested deeper/);
  });

  it('walks without recursion, so a million levels cannot overflow the stack', () => {
    const deep = JSON.parse(`${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}`) as unknown;
    expect(() => checkClientInput(deep)).toThrow(/nested deeper/);
  });

  it('refuses NUL in strings and keys, and nothing else', () => {
    expect(() => checkClientInput({ prompt: 'tab\there\nnew line, ünïcode 👍' })).not.toThrow();
    expect(() => checkClientInput({ prompt: ['x\u0000'] })).toThrow(/NUL/);
    expect(() => checkClientInput({ ['k\u0000']: 1 })).toThrow(/NUL/);
  });
});

describe('the loopback guard', () => {
  const guard = createLoopbackGuard(4747);

  it('accepts our loopback names on our port, with or without one of our origins', () => {
    for (const host of ['127.0.0.1:4747', 'localhost:4747', '[::1]:4747']) {
      expect(guard({ host })).toBeNull();
      expect(guard({ host, origin: 'http://localhost:4747' })).toBeNull();
    }
  });

  it('refuses other hosts with wrong_host and foreign origins with forbidden_sender', () => {
    expect(guard({ host: 'evil.example:4747' })?.code).toBe('wrong_host');
    expect(guard({ host: '127.0.0.1:4748' })?.code).toBe('wrong_host');
    expect(guard({})?.code).toBe('wrong_host');
    expect(guard({ host: 'localhost:4747', origin: 'http://evil.example' })?.code).toBe('forbidden_sender');
    expect(guard({ host: 'localhost:4747', origin: 'null' })?.code).toBe('forbidden_sender');
  });
});
