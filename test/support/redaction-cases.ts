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
