import { describe, expect, it } from 'vitest';
import { REDACTED, redactedJson } from '../../../electron/vault/redactor';
import { leavesAsWritten, readsOnce, takesOut } from '../../support/redaction-cases';

const R = REDACTED;
const VALUE = 'zzEnvApiKeyValue0123456789abcdefXYZ';
const YAML_HINT = '- name: API_KEY\n  value: x\n';

describe('a name/value pair with more between its name and its value', () => {
  takesOut([
    [
      'a pair with five or more members between, value first too',
      `{"name":"API_KEY","a":1,"b":2,"c":3,"d":4,"e":5,"value":"${VALUE}"} {"value":"${VALUE}",${'"a":"b",'.repeat(12)}"key":"DB_PASSWORD"}`,
      `{"name":"API_KEY","a":1,"b":2,"c":3,"d":4,"e":5,"value":"${R}"} {"value":"${R}",${'"a":"b",'.repeat(12)}"key":"DB_PASSWORD"}`,
    ],
    [
      'a pair with an object two levels deep or a list between',
      `{"name":"API_KEY","meta":{"a":{"b":1},"c":[1,2]},"tags":["x",{"y":"z"}],"value":"${VALUE}"}`,
      `{"name":"API_KEY","meta":{"a":{"b":1},"c":[1,2]},"tags":["x",{"y":"z"}],"value":"${R}"}`,
    ],
    [
      'a pair with an object two levels deep between, escaped in a JSON string',
      `"{\\"name\\":\\"API_KEY\\",\\"meta\\":{\\"a\\":{\\"b\\":\\"c\\"}},\\"value\\":\\"${VALUE}\\"}"`,
      `"{\\"name\\":\\"API_KEY\\",\\"meta\\":{\\"a\\":{\\"b\\":\\"c\\"}},\\"value\\":\\"${R}\\"}"`,
    ],
    [
      'a YAML pair with five or more keys between',
      `- name: API_KEY\n${'  a: 1\n'.repeat(6)}  value: ${VALUE}`,
      `- name: API_KEY\n${'  a: 1\n'.repeat(6)}  value: ${R}`,
    ],
  ]);
  leavesAsWritten([
    `{"name":"LOG_LEVEL","a":{"b":{"c":1}},"d":[1,[2]],${'"e":1,'.repeat(6)}"value":"debug-2024-abc123"}`,
    '[{"name":"API_KEY","meta":{"a":{"b":1}}},{"value":"abc123def456ghi789"}]',
  ]);
  it('reads pairs with many members and nested objects between in stored JSON', () => {
    const env = { name: 'API_KEY', a: 1, b: 2, c: 3, d: 4, e: 5, meta: { x: { y: 'z' } }, value: VALUE };
    expect(JSON.parse(redactedJson({ env: [env] }))).toEqual({ env: [{ ...env, value: R }] });
  });
  readsOnce([
    ['pairs with many members and no value', (n) => `${YAML_HINT}${'{"name":"API_KEY","a":"b",'.repeat(n)}`],
    ['nested objects with no end', (n) => `{"name":"API_KEY","a":{${'{"b":['.repeat(n)}`],
    ['lists between with no value', (n) => `${YAML_HINT}${'{"name":"API_KEY","a":[{"b":1}],'.repeat(n)}`],
    [
      'values first before nested objects',
      (n) => `${YAML_HINT}${'{"value":"a","b":{"c":{"d":1}},'.repeat(n)}`,
    ],
    ['YAML keys between with no value', (n) => `- name: API_KEY\n${'  a: b\n'.repeat(n)}`],
  ]);
});
