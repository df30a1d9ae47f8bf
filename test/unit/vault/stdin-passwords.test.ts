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
      'a heredoc in a log line, its lines written as escapes',
      '"cmd":"docker login --password-stdin <<EOF\\nhunter2secret\\nEOF"',
      `"cmd":"docker login --password-stdin <<EOF\\n${R}\\nEOF"`,
    ],
  ]);
  leavesAsWritten([
    'Use sudo -S to read the password from standard input; sudo -S apt update asks for it.',
    'cat <<EOF\nhunter2secret\nEOF\nsudo tee /etc/motd <<EOF\nhello there\nEOF',
    'mysql -u root -p shop <<EOF\nSHOW DATABASES;\nEOF\nmysql -p <<< "SELECT 1"',
    'docker login --password-stdin r.io <<EOF\n$REGISTRY_PASSWORD\nEOF\ndocker login --password-stdin <<EOF\nEOF',
    'docker login --password-stdin r.io; cat <<< hello\npacman -S vim <<< y\nsudo -u root -p "pw:" id <<< S3cretPw',
  ]);
  it('reads a heredoc and a here-string in JSON', () => {
    const value = {
      a: "docker login -u me --password-stdin <<'EOF'\nhunter2secret\nEOF",
      b: 'sudo -S id <<< "S3cret pw"',
      c: 'cat <<EOF\nhunter2secret\nEOF',
    };
    expect(JSON.parse(redactedJson(value))).toEqual({
      a: `docker login -u me --password-stdin <<'EOF'\n${R}\nEOF`,
      b: `sudo -S id <<< "${R}"`,
      c: 'cat <<EOF\nhunter2secret\nEOF',
    });
  });
  readsOnce([
    ['readers on one line with no feed', (n) => `${'sudo mysql --password-stdin '.repeat(n)}x`],
    ['readers on one line with a feed', (n) => `${'sudo mysql --password-stdin '.repeat(n)}<<< pw`],
    ['heredoc openers line after line', (n) => 'sudo -S a <<EOF\n'.repeat(n)],
    ['sudo prompts with no -S', (n) => `echo a | sudo ${"-p '' ".repeat(n)}x`],
    ['an echo before a long pipe with no --password-stdin', (n) => `echo a |${' a'.repeat(n)}`],
    ['separators before a feed', (n) => `sudo -S ${'a;'.repeat(n)} <<< pw`],
  ]);
});
