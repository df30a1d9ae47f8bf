import { afterEach, describe, expect, it } from 'vitest';
import {
  forgetKnownSecrets,
  REDACTED,
  redactErrorMessage,
  redactKnownSecrets,
  redactSecrets,
  rememberSecret,
} from '../../../electron/vault/redactor';

afterEach(() => forgetKnownSecrets());

describe('remembered secrets of any size', () => {
  it('redacts a secret of megabytes without throwing (a pasted blob once made the pattern too large to build)', () => {
    const huge = `{"env":{"GITHUB_TOKEN":"${'x'.repeat(3_000_000)}"}}`;
    rememberSecret(huge);
    rememberSecret('sk-short-secret-123');
    const text = `config ${huge} and sk-short-secret-123 end`;
    expect(redactSecrets(text)).toBe(`config ${REDACTED} and ${REDACTED} end`);
    expect(redactKnownSecrets(text)).toBe(`config ${REDACTED} and ${REDACTED} end`);
    expect(redactErrorMessage(new Error(text))).toBe(`config ${REDACTED} and ${REDACTED} end`);
  });

  it('replaces a long secret that holds a short one whole, not piece by piece', () => {
    const short = 'inner-secret-value';
    const long = `${'y'.repeat(2_000)}${short}${'z'.repeat(2_000)}`;
    rememberSecret(short);
    rememberSecret(long);
    expect(redactSecrets(`a ${long} b ${short} c`)).toBe(`a ${REDACTED} b ${REDACTED} c`);
  });

  it('still redacts when there are too many secrets to join into one pattern', () => {
    const many = Array.from({ length: 500 }, (_, index) => `secret-${index}-${'q'.repeat(1_000)}`);
    for (const secret of many) rememberSecret(secret);
    expect(redactSecrets(`one ${many[321]} two`)).toBe(`one ${REDACTED} two`);
  });
});
