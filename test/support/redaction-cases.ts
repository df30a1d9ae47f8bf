import { expect, it } from 'vitest';
import { redactSecrets } from '../../electron/vault/redactor';
import { describeGrowth, findOutgrowingStep } from './work-growth';

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
 * One test per row: a text made to make a pattern backtrack (a long run of what a pattern tries again and again) is
 * read in step with its length. `make(count)` writes the text with its repeated part `count` times; the text is made
 * at lengths from a few thousand characters to about two hundred thousand, and the work of each length is compared
 * with the last (work-growth.ts), so a pattern that reads a character more than a bounded number of times fails at once.
 */
export function readsOnce(
  table: [label: string, make: (count: number) => string][],
  read: (text: string) => unknown = redactSecrets,
): void {
  it.each(table)('reads %s once', (_label, make) => {
    expect(describeGrowth(findOutgrowingStep(make, read))).toBe(describeGrowth(null));
  });
}
