import { describe, expect, it } from 'vitest';
import { REDACTED, redactedJson } from '../../../electron/vault/redactor';
import { leavesAsWritten, readsOnce, takesOut } from '../../support/redaction-cases';

const R = REDACTED;

describe("a password fed to a command's input", () => {
  takesOut([
    [
      "a password echoed into sudo -S after sudo's prompt option",
      'echo hunter2pw | sudo -p \'\' -S apt update\necho hunter2pw | sudo -u root -p "pw:" -S id',
      `echo ${R} | sudo -p '' -S apt update\necho ${R} | sudo -u root -p "pw:" -S id`,
    ],
    [
      'a password echoed into --password-stdin far after the pipe, or on a continued line',
      `echo hunter2pw | docker login -u ana ${'--label=a '.repeat(25)}--password-stdin r.io\necho S3cretPw | docker login -u ana \\\n  --password-stdin r.io`,
      `echo ${R} | docker login -u ana ${'--label=a '.repeat(25)}--password-stdin r.io\necho ${R} | docker login -u ana \\\n  --password-stdin r.io`,
    ],
    [
      'a here-string given to sudo -S, among its options',
      "sudo -S apt update <<< hunter2pw\nsudo -u root -p '' -S sh -c 'a; b' <<< 'S3cret pw'",
      `sudo -S apt update <<< ${R}\nsudo -u root -p '' -S sh -c 'a; b' <<< '${R}'`,
    ],
    [
      'a here-string given to any command with --password-stdin',
      'helm registry login r.io -u me --password-stdin <<< hunter2pw\nmysql -e x; oras login --password-stdin r.io <<< "S3cret pw"',
      `helm registry login r.io -u me --password-stdin <<< ${R}\nmysql -e x; oras login --password-stdin r.io <<< "${R}"`,
    ],
    [
      "a heredoc's first line fed to --password-stdin",
      'docker login -u me --password-stdin <<EOF\nhunter2secret\nEOF\ndocker login --password-stdin <<-EOF\n\tS3cretPw\n\tEOF',
      `docker login -u me --password-stdin <<EOF\n${R}\nEOF\ndocker login --password-stdin <<-EOF\n\t${R}\n\tEOF`,
    ],
    [
      "a heredoc's first line fed to sudo -S, the input after it kept",
      "sudo -S bash <<'EOF'\nhunter2secret\napt update\nEOF",
      `sudo -S bash <<'EOF'\n${R}\napt update\nEOF`,
    ],
    [
      "a heredoc's first line fed to mysql -p, a word",
      'mysql -u root -p <<EOF\nhunter2secret\nUSE shop;\nEOF',
      `mysql -u root -p <<EOF\n${R}\nUSE shop;\nEOF`,
    ],
    [
      "a here-string or a heredoc's first line fed to mysql -p, of several words",
      "mysql -u root -p <<< 'my secret pw'\nmysql -u root -p shop <<EOF\nmy secret pw\nUSE shop;\nEOF",
      `mysql -u root -p <<< '${R}'\nmysql -u root -p shop <<EOF\n${R}\nUSE shop;\nEOF`,
    ],
    [
      "all of a heredoc's lines fed to --password-stdin, which reads its whole input",
      'docker login -u _json_key --password-stdin https://gcr.io <<-EOF\n\t{\n\t  "type": "service_account",\n\t  "project_id": "p1"\n\t}\n\tEOF\nls',
      `docker login -u _json_key --password-stdin https://gcr.io <<-EOF\n\t${R}\n\tEOF\nls`,
    ],
    [
      'the first line of a heredoc with no end, or too long to be a password, fed to --password-stdin',
      `docker login --password-stdin <<EOF\nS3cretPw\nmore\ndocker login --password-stdin <<EOF\nS3cretPw\n${'a\n'.repeat(40)}EOF`,
      `docker login --password-stdin <<EOF\n${R}\nmore\ndocker login --password-stdin <<EOF\n${R}\n${'a\n'.repeat(40)}EOF`,
    ],
    [
      'a password fed to mysql -p that starts with a word of SQL glued to more',
      'mysql -u root -p <<EOF\nSELECT-s3cret\nEOF\nmysql -p <<< show-me-the-money42\nmysql -p shop <<EOF\nset#pw99x!\nEOF',
      `mysql -u root -p <<EOF\n${R}\nEOF\nmysql -p <<< ${R}\nmysql -p shop <<EOF\n${R}\nEOF`,
    ],
    [
      "mysql's -p glued to a password that starts with a word of SQL",
      'mysql -u root -pSELECTs3cret db\nmysqldump -pselect.s3cret shop',
      `mysql -u root -p${R} db\nmysqldump -p${R} shop`,
    ],
    [
      "all the lines of a heredoc with no end fed to --password-stdin, to the text's end (a key file cut off)",
      'docker login -u _json_key --password-stdin https://gcr.io <<EOF\n{\n  "type": "service_account",\n' +
        '  "private_key_id": "0123456789abcdef0123456789abcdef01234567",\n  "client_email": "x@y.iam"',
      `docker login -u _json_key --password-stdin https://gcr.io <<EOF\n${R}`,
    ],
    [
      "the lines of a heredoc with no end fed to --password-stdin, to its first empty line, the person's words kept",
      'docker login --password-stdin r.io <<EOF\nline one S3cret\nline two S3cret\n\nThat is what I ran, then it failed.',
      `docker login --password-stdin r.io <<EOF\n${R}\n\nThat is what I ran, then it failed.`,
    ],
    [
      'only the first line of a heredoc with no end fed to sudo -S, which reads one line',
      'sudo -S bash <<EOF\nhunter2secret\napt update',
      `sudo -S bash <<EOF\n${R}\napt update`,
    ],
    [
      'a heredoc in a log line, its lines written as escapes',
      '"cmd":"docker login --password-stdin <<EOF\\nhunter2secret\\nEOF"',
      `"cmd":"docker login --password-stdin <<EOF\\n${R}\\nEOF"`,
    ],
  ]);
  leavesAsWritten([
    'Use sudo -S to read the password from standard input; sudo -S apt update asks for it.',
    'cat <<EOF\nhunter2secret\nEOF\nsudo tee /etc/motd <<EOF\nhello there\nEOF',
    'mysql -u root -p shop <<EOF\nSHOW DATABASES;\nEOF\nmysql -p <<< "SELECT 1"',
    // What MySQL reads as a statement or a command of its own, not as a password of several words.
    "mysql -u root -p shop <<EOF\nselect * from t\nEOF\nmysql -p <<< 'show tables'\nmysql -p <<< '-- note'\nmysql -p <<< exit",
    'mysql -u root -p <<EOF\n(SELECT 1)\nEOF\nmysql -p shop <<< "use shop"\nmysql -p <<< "DROP TABLE t"',
    'docker login --password-stdin r.io <<EOF\n$REGISTRY_PASSWORD\nEOF\ndocker login --password-stdin <<EOF\nEOF',
    'docker login --password-stdin r.io; cat <<< hello\npacman -S vim <<< y\nsudo -u root -p "pw:" id <<< S3cretPw',
    // Statements that go on right after their first word, and one of words after a word of SQL (no telling them apart).
    "mysql -p <<EOF\nSELECT*FROM t\nEOF\nmysql -p <<< 'select(1)'\nmysql -p <<< select@@version\nmysql -p <<< \"select'a'\"",
    "mysql -u root -p <<EOF\nSELECT\n1;\nEOF\nmysql -p shop <<< 'select my secret pw'",
    // Other tools' -p, glued or not, and -p in prose.
    'mkdir -p /tmp/select-things && git log -pSELECT\nssh -p 2222 host; scp -P 2222 a b:\nUse -p to print.',
    // A heredoc with no end fed to a command that reads no password, or given after --password-stdin's command ended.
    'cat <<EOF\nhello there\nsee you',
    'docker login --password-stdin r.io; cat <<EOF\nhello there\nsee you',
  ]);
  it("reads a heredoc with no end in JSON to its string's end", () => {
    const value = {
      a: 'docker login --password-stdin r.io <<EOF\nline one S3cret\nline two S3cret',
      b: 'hello',
    };
    expect(JSON.parse(redactedJson(value))).toEqual({
      a: `docker login --password-stdin r.io <<EOF\n${R}`,
      b: 'hello',
    });
  });
  it('reads a heredoc and a here-string in JSON', () => {
    const value = {
      a: "docker login -u me --password-stdin <<'EOF'\nhunter2secret\nEOF",
      b: 'sudo -S id <<< "S3cret pw"',
      c: 'cat <<EOF\nhunter2secret\nEOF',
      d: 'docker login --password-stdin r.io <<EOF\nline one\nline two\nEOF\nmysql -p <<< "my secret pw"',
    };
    expect(JSON.parse(redactedJson(value))).toEqual({
      a: `docker login -u me --password-stdin <<'EOF'\n${R}\nEOF`,
      b: `sudo -S id <<< "${R}"`,
      c: 'cat <<EOF\nhunter2secret\nEOF',
      d: `docker login --password-stdin r.io <<EOF\n${R}\nEOF\nmysql -p <<< "${R}"`,
    });
  });
  readsOnce([
    ['readers on one line with no feed', (n) => `${'sudo mysql --password-stdin '.repeat(n)}x`],
    ['readers on one line with a feed', (n) => `${'sudo mysql --password-stdin '.repeat(n)}<<< pw`],
    ['heredoc openers line after line', (n) => 'sudo -S a <<EOF\n'.repeat(n)],
    ['sudo prompts with no -S', (n) => `echo a | sudo ${"-p '' ".repeat(n)}x`],
    ['an echo before a long pipe with no --password-stdin', (n) => `echo a |${' a'.repeat(n)}`],
    ['separators before a feed', (n) => `sudo -S ${'a;'.repeat(n)} <<< pw`],
    [
      'heredocs fed to --password-stdin with no end',
      (n) => 'docker login --password-stdin <<EOF\nx\n'.repeat(n),
    ],
    [
      'heredoc openers fed to --password-stdin, line after line',
      (n) => 'a --password-stdin <<EOF\n'.repeat(n),
    ],
    ['a long heredoc line fed to --password-stdin', (n) => `a --password-stdin <<EOF\n${'a'.repeat(n)}\nEO`],
    ['heredocs with no end and empty lines', (n) => 'a --password-stdin <<EOF\nx\n\n'.repeat(n)],
    ['a heredoc with no end of many lines', (n) => `a --password-stdin <<EOF\n${'x\n'.repeat(n)}`],
  ]);
  readsOnce(
    [
      [
        'heredocs with no end, in JSON',
        (n) => JSON.stringify({ a: 'a --password-stdin <<EOF\nx\n'.repeat(n) }),
      ],
    ],
    (json) => redactedJson(JSON.parse(json)),
  );
});
