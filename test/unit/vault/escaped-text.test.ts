import { describe, expect, it } from 'vitest';
import { REDACTED, redactedJson, redactSecrets } from '../../../electron/vault/redactor';
import { leavesAsWritten, readsOnce, takesOut } from '../../support/redaction-cases';

const R = REDACTED;
const GITHUB = 'ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8';

describe("JSON's escapes printed as text (a log line of an event's JSON)", () => {
  takesOut([
    ['a token after a \\n escape', `"stderr":"line1\\n${GITHUB}"`, `"stderr":"line1\\n${R}"`],
    ['a key after \\r\\n', `"out":"a\\r\\nAKIAABCDEFGHIJKLMNOP done"`, `"out":"a\\r\\n${R} done"`],
    [
      'a command after a \\t escape',
      '"cmd":"a\\tcurl -u ana:hunter22 https://e.com"',
      `"cmd":"a\\tcurl -u ana:${R} https://e.com"`,
    ],
    ['a token after an escape before a line break of the text', `a\\n\n${GITHUB}\\n\nb`, `a\\n\n${R}\\n\nb`],
    [
      'a token and a command after a \\u000a escape',
      `"out":"a\\u000a${GITHUB}\\u000Acurl -u ana:hunter22 https://e.com"`,
      `"out":"a\\u000a${R}\\u000Acurl -u ana:${R} https://e.com"`,
    ],
    [
      'a YAML value on the line after its name, the name right after an escape',
      '"log":"x\\napi_key:\\n  a1b2c3d4e5f6\\n"',
      `"log":"x\\napi_key:\\n  ${R}\\n"`,
    ],
    [
      'a YAML pair with its value first, after a \\t escape',
      '"log":"x\\t- value: a1b2c3d4e5f6g7\\n  name: API_KEY"',
      `"log":"x\\t- value: ${R}\\n  name: API_KEY"`,
    ],
    [
      "a heredoc's first line fed to --password-stdin, its lines ending in \\u000a escapes",
      '"log":"a\\u000adocker login --password-stdin <<EOF\\u000aS3cretPw\\u000aEOF"',
      `"log":"a\\u000adocker login --password-stdin <<EOF\\u000a${R}\\u000aEOF"`,
    ],
    [
      'a YAML value on the next line and YAML pairs, their lines ending in \\u000a escapes',
      '"log":"x\\u000aapi_key:\\u000a  a1b2c3d4e5f6\\u000a- name: API_KEY\\u000a  value: a1b2c3d4e5f6"',
      `"log":"x\\u000aapi_key:\\u000a  ${R}\\u000a- name: API_KEY\\u000a  value: ${R}"`,
    ],
    [
      'a token after a line break escaped twice (JSON inside JSON)',
      `{"event":"{\\"stderr\\":\\"line1\\\\n${GITHUB}\\"}"}`,
      `{"event":"{\\"stderr\\":\\"line1\\\\n${R}\\"}"}`,
    ],
    [
      "a YAML block scalar whose lines end in \\n escapes, to its string's end or a line less indented",
      '"log":"config:\\n  password: |\\n    s3cr3t-line-1\\n\\n    line-2\\n  user: ana" "y":"token: >-\\r\\n  a1b2c3d4e5f6"',
      `"log":"config:\\n  password: |\\n    ${R}\\n  user: ana" "y":"token: >-\\r\\n  ${R}"`,
    ],
    [
      'a YAML block scalar whose lines end in \\u000a escapes',
      '"log":"x\\u000aprivate_key: |\\u000A  a1b2c3d4e5f6\\u000a  g7h8i9\\u000ay: 1"',
      `"log":"x\\u000aprivate_key: |\\u000A  ${R}\\u000ay: 1"`,
    ],
  ]);
  leavesAsWritten([
    // A block under a name that is no credential's, and one of words too short to be a secret, stay.
    '"log":"description: |\\n  the password is on the note\\n  ask ana\\u000anotes: >\\u000a  token of thanks"',
    '"log":"token: |\\n  short\\n" "cmd":"a | b\\n  password"',
    '"stderr":"line1\\nnpm ERR! code E404\\n\\tat Object.<anonymous>"',
    'printf "a\\nb\\tc\\r\\n" > out.txt\nnext line\\n',
    '"msg":"see\\nsk-learn-style docs\\nAKIA is how a key starts"',
    '"log":"Notes:\\u000a  see the wiki\\u000apassword:\\u000a  12-characters minimum"',
    // A command's line ends at a \u000a escape: docker's user and group and a pipe's next line are not curl's or echo's.
    '"log":"a\\u000acurl -s x\\u000adocker run -u 1000:1000"',
    '"log":"echo hunter2pw | x\\u000adocker login --password-stdin"',
    // A name after an escape is the word after it ("Secret"), not the escape's letter with it ("nSecret").
    '"msg":"notes\\nSecret: friendship\\u000aToken: of thanks"',
  ]);
  readsOnce([
    ['block scalars with escaped line ends and no lines', (n) => 'password: |\\n'.repeat(n)],
    ['a block scalar of empty escaped lines', (n) => `password: |\\n  a${'\\u000a'.repeat(n)}b`],
    ['a block scalar of short escaped lines', (n) => `token: >\\n${'  a\\n\\n'.repeat(n)}`],
    ['a block scalar line of escapes', (n) => `password: |\\n  ${'\\\\'.repeat(n)}\\"`],
  ]);
});

describe('line breaks escaped twice, printed as text (a log line of JSON inside JSON)', () => {
  takesOut([
    [
      "a curl command's password, up to its line's end, not the next line's user and group",
      '{"event":"{\\"cmd\\":\\"curl -u ana:hunter22 https://e.com\\\\ndocker run -u 1000:1000 img\\"}"}',
      `{"event":"{\\"cmd\\":\\"curl -u ana:${R} https://e.com\\\\ndocker run -u 1000:1000 img\\"}"}`,
    ],
    [
      'a curl command continued onto the next line, its continuation escaped twice',
      'curl -s https://e.com \\\\\\\\\\\\n  -u ana:hunter22\\\\ndocker run -u 1000:1000 img',
      `curl -s https://e.com \\\\\\\\\\\\n  -u ana:${R}\\\\ndocker run -u 1000:1000 img`,
    ],
  ]);
  leavesAsWritten([
    'curl -s https://e.com\\\\ndocker run -u 1000:1000 img\\\\u000adocker run -u 1000:1000 img',
    'sshpass -f pwfile ssh h\\\\nssh -p 2222 host',
  ]);
  readsOnce([
    ['a curl command before a run of line breaks escaped twice', (n) => `curl -u a:b ${'\\\\n'.repeat(n)}`],
    ['curl commands each on a line escaped twice', (n) => 'curl -s x\\\\n'.repeat(n)],
    ['a curl command before a run of backslashes', (n) => `curl -u a:b ${'\\\\'.repeat(n)}n`],
  ]);
});

describe('JSON whose strings hold JSON (an event stored inside another)', () => {
  it('reads a token or a command at the start of a line escaped twice', () => {
    const inner = JSON.stringify({ log: `x\n${GITHUB}\ncurl -u ana:hunter22 https://e.com\nnpm ERR! E404` });
    expect(JSON.parse(redactedJson({ event: inner }))).toEqual({
      event: JSON.stringify({ log: `x\n${R}\ncurl -u ana:${R} https://e.com\nnpm ERR! E404` }),
    });
  });
  it("ends a command's line where a line escaped twice ends, as in escaped text", () => {
    const inner = JSON.stringify({
      log: 'ls\ncurl -s https://e.com\ndocker run -u 1000:1000 img\nsudo -S apt update\ncat <<< hello',
      continued:
        'curl -s https://e.com \\\n  -u ana:hunter22\necho hunter22 | \\\n docker login --password-stdin',
    });
    // A log line holding \u000a escapes as characters, in a string.
    const printed = 'curl -s https://e.com\\u000adocker run -u 1000:1000 img';
    const redacted = JSON.parse(redactedJson({ event: inner, printed }));
    expect(redacted.printed).toBe(printed);
    expect(JSON.parse(redacted.event)).toEqual({
      log: 'ls\ncurl -s https://e.com\ndocker run -u 1000:1000 img\nsudo -S apt update\ncat <<< hello',
      continued: `curl -s https://e.com \\\n  -u ana:${R}\necho ${R} | \\\n docker login --password-stdin`,
    });
  });
  it('reads a line written with a \\u000a escape in a string', () => {
    const value = { log: 'x\\u000adocker login -p S3cretPw r.io' };
    expect(JSON.parse(redactedJson(value))).toEqual({ log: `x\\u000adocker login -p ${R} r.io` });
  });
});

describe('quotes escaped twice or more, printed as text (JSON in JSON in JSON, in a log line)', () => {
  takesOut([
    [
      'a field whose quotes are escaped twice, or three times',
      '"log":"{\\"a\\":\\"{\\\\\\"password\\\\\\": \\\\\\"hunter2!x\\\\\\"}\\"}" \\\\\\\\\\\\\\"api_key\\\\\\\\\\\\\\":\\\\\\\\\\\\\\"zzEnvApiKey0123456789\\\\\\\\\\\\\\"',
      `"log":"{\\"a\\":\\"{\\\\\\"password\\\\\\": \\\\\\"${R}\\\\\\"}\\"}" \\\\\\\\\\\\\\"api_key\\\\\\\\\\\\\\":\\\\\\\\\\\\\\"${R}\\\\\\\\\\\\\\"`,
    ],
    [
      'a value escaped twice up to its escaped line break, a run of backslashes in it whole',
      '\\\\\\"secret\\\\\\": \\\\\\"a1b2\\\\\\\\c3d4\\\\nnext',
      `\\\\\\"secret\\\\\\": \\\\\\"${R}\\\\nnext`,
    ],
  ]);
  leavesAsWritten([
    '\\\\\\"issueKey\\\\\\": \\\\\\"PROJ-12345678\\\\\\", \\\\\\"password\\\\\\": \\\\\\"\\\\\\"',
    '\\\\\\"token\\\\\\": \\\\\\"of thanks\\\\\\", \\\\\\"password\\\\\\": \\\\\\"hunter2\\\\\\"',
  ]);
});

/** `value` stored as JSON `levels` times over, each time as the `event` of the object around it. */
function nested(value: unknown, levels: number): unknown {
  return levels === 0 ? value : { event: JSON.stringify(nested(value, levels - 1)) };
}

function unnested(value: unknown, levels: number): unknown {
  return levels === 0 ? value : unnested(JSON.parse((value as { event: string }).event), levels - 1);
}

describe('JSON four and five levels deep (an event stored in an event, stored in another)', () => {
  it.each([3, 4])('reads a field, a pair, a command and a block scalar %i strings deep', (levels) => {
    const held = {
      config: { password: 'hunter2!x', note: 'AUTH required' },
      env: [{ name: 'API_KEY', value: 'zzEnvApiKeyValue0123456789abcdefXYZ' }],
      cmd: 'ls\ncurl -u ana:hunter22 https://e.com',
      yaml: 'db:\n  password: |\n    s3cr3t-line-1\n    line-2\n  user: ana',
      path: 'C:\\Users\\ana\\token.txt',
    };
    expect(unnested(JSON.parse(redactedJson(nested(held, levels))), levels)).toEqual({
      config: { password: R, note: 'AUTH required' },
      env: [{ name: 'API_KEY', value: R }],
      cmd: `ls\ncurl -u ana:${R} https://e.com`,
      yaml: `db:\n  password: |\n    ${R}\n  user: ana`,
      path: 'C:\\Users\\ana\\token.txt',
    });
  });
  readsOnce(
    [
      ['strings holding strings eight deep', (n) => JSON.stringify(nested({ a: 'b\\'.repeat(n) }, 8))],
      ['fields escaped three times with no end', (n) => JSON.stringify(nested('password:"a '.repeat(n), 3))],
    ],
    (json) => redactedJson(JSON.parse(json)),
  );
  readsOnce([
    [
      'values escaped twice of runs of backslashes',
      (n) => `\\\\\\"password\\\\\\":\\\\\\"${'a\\\\'.repeat(n)}`,
    ],
    ['names escaped twice with no value', (n) => '\\\\\\"password\\\\\\":'.repeat(n)],
  ]);
});

describe('JSON three levels deep (a tool output quoting a HAR, stored in an event)', () => {
  it('reads a pair and an authorization whose quotes are escaped twice', () => {
    const har = JSON.stringify({
      name: 'API_KEY',
      meta: { a: 1 },
      value: 'zzEnvApiKeyValue0123456789abcdefXYZ',
    });
    const header = JSON.stringify({ h: 'Authorization: Token $ecr3t Passw0rd' });
    const output = JSON.stringify({ har, header, note: 'AKIA is how a key starts' });
    const redacted = JSON.parse(JSON.parse(redactedJson({ output })).output);
    expect(JSON.parse(redacted.har)).toEqual({ name: 'API_KEY', meta: { a: 1 }, value: R });
    expect(JSON.parse(redacted.header)).toEqual({ h: `Authorization: Token ${R}` });
    expect(redacted.note).toBe('AKIA is how a key starts');
  });
  readsOnce(
    [
      [
        'pairs escaped twice with no end',
        (n) => JSON.stringify({ a: JSON.stringify('{"name":"API_KEY","a":"'.repeat(n)) }),
      ],
      ['many strings holding an escaped quote', (n) => JSON.stringify({ b: Array<string>(n).fill('\\"x') })],
      // The string read again holds quotes escaped at every one of them: none of its quotes ends a string there.
      ['a string of quotes escaped twice, none closing', (n) => JSON.stringify({ s: '\\\\\\"'.repeat(n) })],
      [
        'escaped quotes and a backslash at a line end',
        (n) => JSON.stringify({ s: `${'\\\\\\"'.repeat(n)}\\\n"` }),
      ],
    ],
    (json) => redactedJson(JSON.parse(json)),
  );
});

describe('JSON inside JSON printed as text (a log line or an error quoting an event, redactSecrets)', () => {
  const held = {
    config: { password: 'hunter2!x', note: 'AUTH required' },
    headers: [{ name: 'X-Api-Key', value: 'zzEnvApiKeyValue0123456789abcdefXYZ' }],
    auth: { name: 'Authorization', value: 'Basic YW5hOmh1bnRlcjJzZWNyZXQ=' },
    login: 'docker login -u ana --password-stdin r.io <<EOF\nhunter2secret\nEOF',
    redis: 'redis-cli -h cache\nAUTH mypassword',
    yaml: 'db:\n  private_key: |\n    s3cr3t-line-1\n    line-2\n  user: ana',
    path: 'C:\\Users\\ana\\token.txt',
  };
  const redacted = {
    config: { password: R, note: 'AUTH required' },
    headers: [{ name: 'X-Api-Key', value: R }],
    auth: { name: 'Authorization', value: `Basic ${R}` },
    login: `docker login -u ana --password-stdin r.io <<EOF\n${R}\nEOF`,
    redis: `redis-cli -h cache\nAUTH ${R}`,
    yaml: `db:\n  private_key: |\n    ${R}\n  user: ana`,
    path: 'C:\\Users\\ana\\token.txt',
  };
  it.each([1, 2, 3, 4])('reads a pair, a heredoc, an AUTH and a block scalar %i strings deep', (levels) => {
    const line = `event ${JSON.stringify(nested(held, levels))} stored`;
    const read = redactSecrets(line);
    expect(unnested(JSON.parse(read.slice('event '.length, -' stored'.length)), levels)).toEqual(redacted);
  });
  it.each([2, 3])('reads a pair %i strings deep, its quotes the only hint there is', (levels) => {
    const har = { headers: [{ name: 'X-Api-Key', value: 'zzEnvApiKeyValue0123456789abcdefXYZ' }] };
    const read = redactSecrets(`event ${JSON.stringify(nested(har, levels))}`);
    expect(unnested(JSON.parse(read.slice('event '.length)), levels)).toEqual({
      headers: [{ name: 'X-Api-Key', value: R }],
    });
  });
  leavesAsWritten([
    // Strings holding escapes but no secret, beside a hint, stay as written, their escapes too.
    `token: "x" ${JSON.stringify(JSON.stringify({ a: 'C:\\Users\\ana', b: 'say "hi"\n\u00e9' }))}`,
    `"password":"" ${JSON.stringify(JSON.stringify({ note: 'the password is on the note', t: 'AUTH required' }))}`,
  ]);
  readsOnce([
    [
      'strings holding strings eight deep',
      (n) => `token: x ${JSON.stringify(nested({ a: 'b\\'.repeat(n) }, 8))}`,
    ],
    ['fields escaped three times with no end', (n) => JSON.stringify(nested('password:"a '.repeat(n), 3))],
    [
      'pairs escaped twice with no end',
      (n) => JSON.stringify({ a: JSON.stringify('{"name":"API_KEY","a":"'.repeat(n)) }),
    ],
    ['a string of quotes escaped twice, none closing', (n) => JSON.stringify({ s: '\\\\\\"'.repeat(n) })],
    ['quotes in prose beside a hint and escaped backslashes', (n) => `token: x ${'"a\\\\b" '.repeat(n)}`],
    ['an opening quote before escaped backslashes with no end', (n) => `token: x "${'a\\\\'.repeat(n)}`],
  ]);
});
