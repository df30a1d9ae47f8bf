import { describe, expect, it } from 'vitest';
import { REDACTED, redactedJson } from '../../../electron/vault/redactor';
import { leavesAsWritten, readsOnce, takesOut } from '../../support/redaction-cases';

const R = REDACTED;

describe("Redis' AUTH outside redis-cli's command line", () => {
  takesOut([
    [
      'AUTH on a line of its own, with a user or without',
      'SELECT 1\nAUTH S3cretPw\n  AUTH default hunter2!',
      `SELECT 1\nAUTH ${R}\n  AUTH default ${R}`,
    ],
    [
      'AUTH in a string of its own, and after a \\n escape',
      '"AUTH S3cretPw" "x\\nAUTH S3cretPw"',
      `"AUTH ${R}" "x\\nAUTH ${R}"`,
    ],
    [
      "MIGRATE's AUTH and AUTH2, the keys after them kept",
      'MIGRATE 10.0.0.2 6379 "" 0 5000 AUTH S3cretPw KEYS a b\nMIGRATE r.io 6380 key 0 5000 COPY AUTH2 ana mypassword',
      `MIGRATE 10.0.0.2 6379 "" 0 5000 AUTH ${R} KEYS a b\nMIGRATE r.io 6380 key 0 5000 COPY AUTH2 ana ${R}`,
    ],
    [
      'AUTH of letters only, or in small letters, in a Redis session: redis-cli on its line or the line before',
      '$ redis-cli -h cache\nAUTH mypassword\nredis-cli <<EOF\nauth default mypassword\nPING\nEOF\n' +
        'echo "auth mypassword" | redis-cli\nprintf \'AUTH mypassword\\nPING\\n\' | redis-cli -h c',
      `$ redis-cli -h cache\nAUTH ${R}\nredis-cli <<EOF\nauth default ${R}\nPING\nEOF\n` +
        `echo "auth ${R}" | redis-cli\nprintf 'AUTH ${R}\\nPING\\n' | redis-cli -h c`,
    ],
    [
      "AUTH of letters a line after redis-cli's prompt, or on its line",
      '127.0.0.1:6379>\nAUTH mypassword\ncache.internal:6380[2]> \nauth mypassword\n10.0.0.5:6379[1]> AUTH mypassword',
      `127.0.0.1:6379>\nAUTH ${R}\ncache.internal:6380[2]> \nauth ${R}\n10.0.0.5:6379[1]> AUTH ${R}`,
    ],
    [
      'AUTH of letters two or three lines after redis-cli, a blank line, a PING or its PONG between',
      'redis-cli -h cache\n\nAUTH mypassword\n--\n$ redis-cli\nPING\nPONG\nauth default mypassword',
      `redis-cli -h cache\n\nAUTH ${R}\n--\n$ redis-cli\nPING\nPONG\nauth default ${R}`,
    ],
    [
      "AUTH with spaces after its password, on its line, at the prompt and on redis-cli's command line",
      'AUTH S3cretPw \nredis-cli\nAUTH default mypassword\t\n127.0.0.1:6379> auth S3cretPw  \nredis-cli -h c AUTH S3cretPw ',
      `AUTH ${R} \nredis-cli\nAUTH default ${R}\t\n127.0.0.1:6379> auth ${R}  \nredis-cli -h c AUTH ${R} `,
    ],
    [
      "AUTH's password before a sentence on its line (a rejection's words after the person's note), its full stop kept",
      'The user rejected this action: redis-cli\nAUTH s3cretpass. Do not retry it unless they ask.\n' +
        'user@host:~$ redis-cli -h c\nauth default mypassword! It worked.\n' +
        '127.0.0.1:6379> AUTH S3cretPw. Then PING.\nRejected: redis-cli AUTH s3cret.pass? Not now.',
      `The user rejected this action: redis-cli\nAUTH ${R}. Do not retry it unless they ask.\n` +
        `user@host:~$ redis-cli -h c\nauth default ${R}! It worked.\n` +
        `127.0.0.1:6379> AUTH ${R}. Then PING.\nRejected: redis-cli AUTH ${R}? Not now.`,
    ],
    [
      "AUTH's password before a sentence of one word, not taken for a user (the sentence's word for the password)",
      'AUTH S3cretPw. Thanks!\nredis-cli\nAUTH mypassword. Thanks\n127.0.0.1:6379> AUTH hunter22! Done.\n' +
        'redis-cli -h c AUTH s3cret. Bye',
      `AUTH ${R}. Thanks!\nredis-cli\nAUTH ${R}. Thanks\n127.0.0.1:6379> AUTH ${R}! Done.\n` +
        `redis-cli -h c AUTH ${R}. Bye`,
    ],
    [
      "AUTH's password in single quotes before a sentence, or its mark at the line's end",
      "AUTH 'S3cret pw'. Thanks\nredis-cli\nauth 'mypassword'! Done.\n127.0.0.1:6379> AUTH 'hunter2 x'?\n" +
        "redis-cli -h c AUTH 'S3cret pw'. Bye",
      `AUTH '${R}'. Thanks\nredis-cli\nauth '${R}'! Done.\n127.0.0.1:6379> AUTH '${R}'?\n` +
        `redis-cli -h c AUTH '${R}'. Bye`,
    ],
    [
      "AUTH's password before a comma and more words on its line, the comma kept",
      'AUTH s3cret, then PING\nredis-cli\nauth default mypassword, it said OK\n127.0.0.1:6379> AUTH hunter22, done',
      `AUTH ${R}, then PING\nredis-cli\nauth default ${R}, it said OK\n127.0.0.1:6379> AUTH ${R}, done`,
    ],
    [
      "AUTH in capitals inside a line, before a comma, a sentence or the line's end",
      'run AUTH hunter2secret, then GET key\nI ran AUTH S3cret-pw-99. It worked\nThen send AUTH default hunter2secret',
      `run AUTH ${R}, then GET key\nI ran AUTH ${R}. It worked\nThen send AUTH default ${R}`,
    ],
    [
      'AUTH in a code span inside a line, the span kept',
      "Then type `AUTH hunter2secret` at the prompt, or `AUTH 'S3cret pw 9'`.",
      `Then type \`AUTH ${R}\` at the prompt, or \`AUTH '${R}'\`.`,
    ],
    [
      'AUTH in small letters inside a line in a Redis session',
      '$ redis-cli -h cache\nthen run auth hunter2secret, then GET key',
      `$ redis-cli -h cache\nthen run auth ${R}, then GET key`,
    ],
    [
      "AUTH at Redis' own prompt, as its pages write it",
      'redis> AUTH foobared\nredis 127.0.0.1:6379> auth mypassword',
      `redis> AUTH ${R}\nredis 127.0.0.1:6379> auth ${R}`,
    ],
    [
      "MIGRATE's AUTH in small letters, with all of MIGRATE's arguments before it",
      'migrate 10.0.0.2 6379 "" 0 5000 copy replace auth S3cretPw keys a b\nMigrate r.io 6380 k 0 5000 auth2 ana mypassword',
      `migrate 10.0.0.2 6379 "" 0 5000 copy replace auth ${R} keys a b\nMigrate r.io 6380 k 0 5000 auth2 ana ${R}`,
    ],
    [
      "a Redis URL's password, with no user or the default one",
      'redis://:S3cretPw@host:6379 rediss://default:S3cretPw@host:6380/0',
      `redis://:${R}@host:6379 rediss://default:${R}@host:6380/0`,
    ],
  ]);
  leavesAsWritten([
    // A password of letters alone, at a line's start, is as likely a sentence's word.
    'AUTH required\nAUTH token expired\nAUTH failed for user ana\nAUTH $REDIS_PASSWORD',
    // After redis-cli, words that say how AUTH went, a quote's ">" or a sentence of more words: no password in them.
    'redis-cli ping\nPONG\nAUTH required\nauth failed\n> AUTH required\n> auth failed',
    'Use redis-cli to connect.\nauth is handled by the gateway.\nredis-cli -h cache\n\nAUTH required',
    // Words that say how AUTH went, a reply's or a sentence's, in a Redis session too, and after Redis' own reply.
    'redis-cli ping\nAUTH required',
    'redis-cli -h cache get k\nauth failed.',
    'AUTH failed.\nAUTH required!',
    'AUTH failed. Try again.\nredis-cli ping\nAUTH required. Set a password first.\nAUTH is needed. See the docs.',
    'AUTH failed. Sorry!\nAUTH denied. Why?',
    'redis-cli\nAUTH token expired',
    'redis-cli ping\n(error) NOAUTH Authentication required.',
    'We will MIGRATE the users; AUTH is handled by the gateway.',
    'MIGRATE the accounts to 6379 then AUTH with SSO',
    // AUTH inside a sentence: words, versions, asides and placeholders, not passwords; in small letters, with no Redis.
    'Redis 6 replaced AUTH with ACLs, which most teams use. Set the AUTH header, then retry.',
    'We moved AUTH to v2.0-beta, then shipped. The AUTH v2 flow, then the callback.',
    'Configure AUTH (OAuth2), then restart. Send AUTH <password>, then GET key.',
    'Send AUTH $REDIS_PASSWORD, then GET key. Use `AUTH ********` in the docs.',
    'After AUTH failed, we retried. The OAUTH2 token, then refresh. It needs AUTH everywhere, always.',
    'Our auth provider (Auth0), then the API. We use auth v2-compat, then oauth2-proxy, in the gateway.',
    // In small letters only a command with every argument in its place is one.
    'We will migrate db1 5 times, then auth users.\nmigrate server 1 2 3 auth required\nmigrate h 6379 k 0 auth pw',
  ]);
  it('reads AUTH and MIGRATE in JSON', () => {
    const value = {
      a: 'AUTH S3cretPw',
      b: 'x\nMIGRATE h 6379 "" 0 5000 AUTH S3cretPw KEYS a',
      c: 'AUTH required',
      d: 'migrate h 6379 "" 0 5000 auth "S3cret pw" keys a',
      e: ['redis-cli -h cache', 'AUTH required', 'redis-cli -h cache\nAUTH mypassword'],
      f: ['127.0.0.1:6379>\nauth mypassword', 'redis-cli\nPING\nPONG\nAUTH mypassword'],
      g: 'The user rejected this action: redis-cli\nAUTH mypassword. Do not retry it unless they ask.',
      h: "The user rejected this action: redis-cli\nAUTH 'S3cret pw'. Do not retry it unless they ask.",
      i: ['run AUTH hunter2secret, then GET key', 'type `AUTH hunter2secret`', 'AUTH with ACLs, then'],
    };
    expect(JSON.parse(redactedJson(value))).toEqual({
      a: `AUTH ${R}`,
      b: `x\nMIGRATE h 6379 "" 0 5000 AUTH ${R} KEYS a`,
      c: 'AUTH required',
      d: `migrate h 6379 "" 0 5000 auth "${R}" keys a`,
      e: ['redis-cli -h cache', 'AUTH required', `redis-cli -h cache\nAUTH ${R}`],
      f: [`127.0.0.1:6379>\nauth ${R}`, `redis-cli\nPING\nPONG\nAUTH ${R}`],
      g: `The user rejected this action: redis-cli\nAUTH ${R}. Do not retry it unless they ask.`,
      h: `The user rejected this action: redis-cli\nAUTH '${R}'. Do not retry it unless they ask.`,
      i: [`run AUTH ${R}, then GET key`, `type \`AUTH ${R}\``, 'AUTH with ACLs, then'],
    });
  });
  readsOnce([
    ['AUTH words on one line', (n) => `${'AUTH a '.repeat(n)}`],
    ['AUTH words and commas on one line', (n) => `${'AUTH a, '.repeat(n)}`],
    ['AUTH with a comma and a long run of words', (n) => `AUTH pw, ${'then '.repeat(n)}`],
    ['AUTH lines with no end', (n) => 'AUTH a b c\n'.repeat(n)],
    ['MIGRATE commands with no AUTH', (n) => `MIGRATE h 6379 ${'k 0 '.repeat(n)}`],
    ['MIGRATE openings', (n) => 'MIGRATE h 6379 '.repeat(n)],
    ['migrate words with no port, and machine words', (n) => 'migrate the machine '.repeat(n)],
    ['AUTH of letters line after line after redis-cli', (n) => `redis-cli\n${'AUTH abc\n'.repeat(n)}`],
    ['a line of redis-cli words, then AUTH of letters', (n) => `${'redis-cli '.repeat(n)}\n\nauth abc`],
    ['redis-cli lines, each with AUTH of letters after it', (n) => 'redis-cli\nPING\nauth abc\n'.repeat(n)],
    ['prompts, each with AUTH of letters on the line after it', (n) => 'h:6379[1]>\n\nauth abc\n'.repeat(n)],
    [
      'AUTH of letters after ports and a ">" that make no prompt',
      (n) => 'h:6379[1 :6379> h:\n>\nauth abc\n'.repeat(n),
    ],
    ['echoed AUTH words on one line', (n) => `redis-cli ${'"AUTH abc" | '.repeat(n)}`],
    ['AUTH of letters in strings after redis-cli', (n) => `redis-cli ${'"a","AUTH abc",'.repeat(n)}`],
    ['migrate commands with no auth', (n) => `auth ${'migrate h 6379 k 0 5000 copy '.repeat(n)}`],
    ['migrate arguments with no closing quote', (n) => `auth migrate h 6379 "${'a '.repeat(n)}`],
    // Each shorter run of the spaces was tried against the rest of the line: about 30 s for each.
    ['AUTH on its line before a long run of spaces', (n) => `\nAUTH a ${' '.repeat(n)}x y`],
    [
      'AUTH on its line, its password before a long run of spaces to the end',
      (n) => `\nAUTH a ${' \t'.repeat(n)}`,
    ],
    ['AUTH lines, each with a sentence after its password', (n) => 'auth a. b\nAUTH a b! c d\n'.repeat(n)],
    ['AUTH before a word of full stops', (n) => `\nAUTH ${'a.'.repeat(n)} x`],
    ['AUTH before a word that ends in a run of full stops', (n) => `\nAUTH a${'.'.repeat(n)} b c`],
    [
      'AUTH lines, each with a password in quotes before a sentence',
      (n) => "AUTH 'a b'. c\nauth 'a'! b c\n".repeat(n),
    ],
    ['AUTH lines, each with spaces after its password', (n) => 'AUTH a  \nauth a b \t\n'.repeat(n)],
    ['AUTH at the prompt before a long run of spaces', (n) => `127.0.0.1:6379> AUTH ${' \t'.repeat(n)}x y z`],
    ['AUTH inside a line, words after words', (n) => `run ${'AUTH a b '.repeat(n)}`],
    ['AUTH inside a line before a long run of backticks', (n) => `run AUTH a1${'`'.repeat(n)} b`],
    [
      'AUTH in small letters inside lines after redis-cli',
      (n) => `redis-cli\n${'run auth a1b2c3d4, x\n'.repeat(n)}`,
    ],
  ]);
});
