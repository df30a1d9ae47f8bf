import { expect, it } from 'vitest';
import { redactSecrets } from '../../electron/vault/redactor';

/** One test per text: it comes back as written. */
export function leavesAsWritten(texts: string[]): void {
  it.each(texts)('leaves %j as written', (text) => {
    expect(redactSecrets(text)).toBe(text);
  });
}

/** One test per row: what is pasted, and the text once redacted. */
export function takesOut(table: [label: string, text: string, redacted: string][]): void {
  it.each(table)('takes out %s', (_label, text, redacted) => {
    expect(redactSecrets(text)).toBe(redacted);
  });
}

/**
 * One test per row: a text of hundreds of kilobytes made to make a pattern backtrack is redacted at all (a pattern
 * that read it more than once per character would not finish).
 */
export function readsOnce(table: [label: string, text: string][]): void {
  it.each(table)('reads %s once', (_label, text) => {
    expect(redactSecrets(text).length).toBeGreaterThan(0);
  });
}
