import { describe, expect, it } from 'vitest';
import { REDACTED, redactedJson } from '../../../electron/vault/redactor';
import { leavesAsWritten, takesOut } from '../../support/redaction-cases';

const R = REDACTED;

describe("htpasswd's password, its last argument", () => {
  takesOut([
    [
      'a quoted password holding a > or a <, not taken for a redirect',
      'htpasswd -b .htpasswd ana "pa ss >word1"\nhtpasswd -nbB ana \'S3cret >pw\' > out\nhtpasswd -b f ana "a<b>c1" 2>/dev/null',
      `htpasswd -b .htpasswd ana "${R}"\nhtpasswd -nbB ana '${R}' > out\nhtpasswd -b f ana "${R}" 2>/dev/null`,
    ],
  ]);
  leavesAsWritten(['htpasswd -b .htpasswd ana > "out file"', 'htpasswd -nb ana "$PW" 2> "err >log"']);
  it('reads a quoted password holding a > in JSON', () => {
    expect(JSON.parse(redactedJson({ a: 'htpasswd -b .htpasswd ana "pa ss >word1"' }))).toEqual({
      a: `htpasswd -b .htpasswd ana "${R}"`,
    });
  });
});
