import { describe, expect, it } from 'vitest';
import { REDACTED, redactedJson, redactSecrets } from '../../../electron/vault/redactor';

const R = REDACTED;
const OPENAI_PROJECT = 'sk-proj-Abc123Def456Ghi789Jkl012Mno345Pqr678Stu901';
const OPENAI_LEGACY = 'sk-Zq3xT9vB2nM4kL7pR1sW8yH5jF6dG0cA3eU9iO2qW4rT7yU1';
const GITHUB_BODY = 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8';
const AWS_SECRET = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';
const VALUE = 'zzEnvApiKeyValue0123456789abcdefXYZ';

/** One test per text: it comes back as written. */
function leavesAsWritten(texts: string[]): void {
  it.each(texts)('leaves %j as written', (text) => {
    expect(redactSecrets(text)).toBe(text);
  });
}

/** One test per row: what is pasted, and the text once redacted. */
function takesOut(table: [label: string, text: string, redacted: string][]): void {
  it.each(table)('takes out %s', (_label, text, redacted) => {
    expect(redactSecrets(text)).toBe(redacted);
  });
}

describe('secrets a person pasted, by shape', () => {
  takesOut([
    ['an OpenAI project key', `use ${OPENAI_PROJECT} here`, `use ${R} here`],
    ['an OpenAI key of the older shape', `key ${OPENAI_LEGACY}.`, `key ${R}.`],
    ['an OpenAI key as an env line', `OPENAI_API_KEY=${OPENAI_PROJECT}`, `OPENAI_API_KEY=${R}`],
    ['an Anthropic key', 'sk-ant-api03-AbCdEf0123456789_GhIjKl-mnop', R],
    ['a GitHub personal token', `ghp_${GITHUB_BODY}`, R],
    ['a GitHub OAuth token', `gho_${GITHUB_BODY}`, R],
    ['a GitHub user-to-server token', `ghu_${GITHUB_BODY}`, R],
    ['a GitHub server-to-server token', `ghs_${GITHUB_BODY}`, R],
    ['a GitHub refresh token', `ghr_${GITHUB_BODY}`, R],
    ['a GitHub fine-grained token', 'github_pat_11ABCDEFG0123456789abc_defGHIjklMNOpqrSTUvwxYZ0123456789', R],
    ['a GitLab token', 'glpat-AbCdEf0123456789xyz_', R],
    ['an AWS access key id', 'id AKIAIOSFODNN7EXAMPLE, region eu-west-1', `id ${R}, region eu-west-1`],
    ['an AWS temporary key id', 'ASIAY34FZKBOKMUTVV7A', R],
    [
      'an AWS secret key in a credentials file',
      `aws_secret_access_key = ${AWS_SECRET}`,
      `aws_secret_access_key = ${R}`,
    ],
    ['an AWS secret key as an env line', `AWS_SECRET_ACCESS_KEY=${AWS_SECRET}`, `AWS_SECRET_ACCESS_KEY=${R}`],
    ['a Stripe secret key', 'stripe sk_live_51HabcdefghijklmnopqrstuvWXyz', `stripe ${R}`],
    ['a Stripe restricted key', 'rk_live_51HabcdefghijklmnopqrstuvWXyz', R],
    ['a Stripe test key', 'sk_test_51HabcdefghijklmnopqrstuvWXyz', R],
    ['a Slack bot token', 'xoxb-1234567890-0987654321-AbCdEfGhIjKl', R],
    ['a Slack refresh token', 'xoxr-1234567890-AbCdEfGhIjKl', R],
    ['a Slack legacy token', 'xoxs-1234567890-AbCdEfGhIjKl', R],
    [
      'a key after a field that holds none',
      `password: see below; use ${OPENAI_PROJECT}`,
      `password: see below; use ${R}`,
    ],
    ['a field after a key', `use ${OPENAI_PROJECT} and api_key=${VALUE}`, `use ${R} and api_key=${R}`],
  ]);
});

describe('the value of a field whose name says it holds a secret', () => {
  takesOut([
    ['api_key=', `api_key=${VALUE}`, `api_key=${R}`],
    ['API_KEY=', `API_KEY=${VALUE}`, `API_KEY=${R}`],
    ['a shell export', `export MY_API_KEY=${VALUE}`, `export MY_API_KEY=${R}`],
    ['a quoted shell export', `export MY_API_KEY="${VALUE}"`, `export MY_API_KEY="${R}"`],
    ['a Slack token env line', `SLACK_TOKEN=${VALUE}`, `SLACK_TOKEN=${R}`],
    ['a JSON field', `"Token": "${VALUE}"`, `"Token": "${R}"`],
    ['a camelCase JSON field', `{"clientSecret":"${VALUE}"}`, `{"clientSecret":"${R}"}`],
    ['a YAML password', 'password: Hunter2-Correct-Horse', `password: ${R}`],
    ['a quoted password with spaces', "DB_PASSWORD='correct horse battery staple'", `DB_PASSWORD='${R}'`],
    ['a passwd field', 'root_passwd=Tr0ub4dor-3', `root_passwd=${R}`],
    ['a PWD field', 'MYSQL_PWD=s3cr3t-pass-99', `MYSQL_PWD=${R}`],
    ['a glued password name', 'dbpassword: letmein-2024', `dbpassword: ${R}`],
    ['an x-api-key header', `x-api-key: ${VALUE}`, `x-api-key: ${R}`],
    ['an X-Auth-Token header', 'X-Auth-Token: 9f8e7d6c5b4a3210', `X-Auth-Token: ${R}`],
    [
      'a query string',
      `GET /v1/items?access_token=${VALUE}&page=2`,
      `GET /v1/items?access_token=${R}&page=2`,
    ],
    ['an "API key:" line', 'My API key: 4f9a8b7c6d5e4f3a', `My API key: ${R}`],
    ['an "access token" line', `access token = ${VALUE}`, `access token = ${R}`],
    ['a lower-case secret', 'secret: a9f8e7d6c5b4', `secret: ${R}`],
    [
      'a password in a query, unlike a meeting passcode',
      'https://example.com/login?user=ana&password=hunter2-long',
      `https://example.com/login?user=ana&password=${R}`,
    ],
    ['a JSON password', `{"password": "${VALUE}"}`, `{"password": "${R}"}`],
    ['a JSON api_key', `{"api_key":"${VALUE}"}`, `{"api_key":"${R}"}`],
    ['a JSON client_secret', `{"client_secret": "${VALUE}"}`, `{"client_secret": "${R}"}`],
    ['a YAML password with hyphens', 'password: hunter2-long-value', `password: ${R}`],
    ['a GitHub token env line', `GITHUB_TOKEN=${VALUE}`, `GITHUB_TOKEN=${R}`],
    ['a webhook secret', `webhook_secret: ${VALUE}`, `webhook_secret: ${R}`],
    ['an --api-key argument', `--api-key=${VALUE}`, `--api-key=${R}`],
    ['a key assigned in code', `const apiKey = "${VALUE}";`, `const apiKey = "${R}";`],
    [
      'a base64 secret that starts with "/"',
      'aws_secret_access_key = /K7MDENGbPxRfiCYEXAMPLEKEYwJalrXUtnFEMI0a',
      `aws_secret_access_key = ${R}`,
    ],
  ]);
});

describe('credentials in headers and URLs', () => {
  takesOut([
    [
      'a Basic authorization header',
      'Authorization: Basic dXNlcjpwYXNzd29yZDEyMzQ1Njc4OTA=',
      `Authorization: Basic ${R}`,
    ],
    ['a Basic header in JSON', '{"Authorization":"Basic dXNlcjpwYXNz"}', `{"Authorization":"Basic ${R}"}`],
    ['a Bearer header', `authorization: Bearer ${VALUE}`, `authorization: Bearer ${R}`],
    ['a database URL', 'postgres://user:pw@host/db', `postgres://user:${R}@host/db`],
    [
      'a URL password with symbols',
      'postgres://admin:S3cretPassw0rd!@db.example.com/prod',
      `postgres://admin:${R}@db.example.com/prod`,
    ],
    ['a URL with no user', 'redis://:hunter22@cache:6379/0', `redis://:${R}@cache:6379/0`],
    [
      'a URL in an env line',
      'DATABASE_URL=mongodb+srv://app:pa55word@cluster0.example.net/',
      `DATABASE_URL=mongodb+srv://app:${R}@cluster0.example.net/`,
    ],
  ]);
});

describe('text that only looks like it might hold a secret', () => {
  leavesAsWritten([
    'the password is on the sticky note',
    'password: on the sticky note',
    'my token of thanks',
    'sk-ills',
    'a task-management-dashboard-for-the-whole-team',
    'sk-learn-style-pipeline-for-text-classification',
    'Key: bring the documents',
    'monkey: bananas-and-more-bananas',
    'Secret: friendship',
    'Token: Thanks!',
    'api_key=short',
    'api_key=null',
    'API_KEY=none',
    'API_KEY=<redacted>',
    'API_KEY=[redacted]',
    'OPENAI_API_KEY=$OPENAI_API_KEY',
    'token: ${TOKEN}',
    'const apiKey = process.env.OPENAI_API_KEY',
    'api_key=your-api-key-here',
    'PWD=/home/ana/projects/deputy',
    'WWW-Authenticate: Basic realm="Deputy"',
    'Basic information about the account',
    'https://example.com:8080/search?q=ana@example.com',
    'git clone git@github.com:deputy/app.git',
    'Lunch with Ana on Friday at 12:30, see https://example.com/a-b',
    '{"nextPageToken":"CiAKGjBpNDd2Nmp2Zml2cXRjbzk0OWRzaWkxMjAxMBIA","idempotencyKey":"run-1:call-2:3f9a0c1d2e"}',
    '{"publicKey":"MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE4f9a8b7c6d"}',
  ]);
});

describe('code pasted into a message: a credential variable given an expression', () => {
  leavesAsWritten([
    'const apiKey = getApiKey(config);',
    'let password = form.value.trim();',
    'accessToken = response.data.accessToken;',
    'const { apiKey } = props; const authToken = useAuthToken();',
    'self.api_key = api_key_from_env',
    'const apiKey = apiKeyFromEnv;',
    'if (!session_token || refreshToken === undefined) return;',
    'password = input("Password: ")',
    'api_key = credentials[index]',
    'interface Session { refreshToken: RefreshToken; apiKey?: string }',
    'api_key = os.getenv("OPENAI_API_KEY")',
  ]);
});

describe('fields named like a key or a token that hold no credential', () => {
  leavesAsWritten([
    '{"issueKey":"PROJ-1234567"}',
    '{"threadKey":"thread-2024-05-01-abc"}',
    '{"messageKey":"msg_2024_abcdefgh"}',
    '{"task_key":"TASK-12345678"}',
    '{"storageKey":"deputy.settings.v2"}',
    '{"i18nKey":"settings.title.main"}',
    '{"eventToken":"ev_12345678"}',
    '{"key":"PROJ-123","fields":{"summary":"Fix login"},"issueKey":"PROJ-1234567"}',
    '{"id":"msg1","threadKey":"thread-2024-05-01-abc","storageKey":"deputy.settings.v2"}',
    'keyboard_key: escape_key',
    '{"pageToken":"CiAKGjBpNDd2Nmp2Zml2cXRwcjVsdWJ0bWFoaXIaBBAB"}',
    '{"syncToken":"CPDAlvWDx70CEPDAlvWDx70CGAU="}',
    '{"deputyKey":"run-1:call-2:3f9a0c1d2e"}',
  ]);
});

describe('a meeting link, whose passcode is for everyone invited', () => {
  leavesAsWritten([
    'https://zoom.us/j/123456789?pwd=AbCdEfGh12345',
    'zoom.us/j/123456789?pwd=abcDEF123456',
    'Join Zoom Meeting https://us02web.zoom.us/j/85012345678?pwd=dGhpcyBpcyBhIHRlc3Q1 Meeting ID: 850 1234 5678',
    '{"location":"https://zoom.us/j/123456789?uname=ana&pwd=AbCdEfGh12345"}',
  ]);
});

describe('the path of a key file, which is where the key is and not the key', () => {
  leavesAsWritten([
    '--private-key=/home/ana/.ssh/id_ed25519',
    '--ssh-key=~/.ssh/id_rsa',
    '--tls-key=/etc/ssl/private/server.key',
    '--key=/etc/ssl/key.pem',
    '--signing-key=./keys/dev.pem',
    'private_key: ../keys/dev.pem',
    String.raw`--private-key=C:\Users\Ana\keys\dev.pem`,
    JSON.stringify({ args: [String.raw`--private-key=C:\Users\Ana\.ssh\id_ed25519`] }),
  ]);
});

describe('private keys in PEM form', () => {
  const key = (body: string) => `-----BEGIN PRIVATE KEY-----\n${body}\n-----END PRIVATE KEY-----`;
  takesOut([
    ['a whole key', `key: ${key('MIIEvQIBADANBgkqhkiG9w0BAQEFAASC')}`, `key: ${R}`],
    ['a key cut off before its END line', 'key: -----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkq', `key: ${R}`],
    // A whole key is read from its own BEGIN line: the words after a cut-off one, before the next key, stay.
    [
      'a cut-off key, then a whole one',
      `first: -----BEGIN PRIVATE KEY-----\nMIIEvQIB (cut off) Here is the whole one: ${key('MIIEvQIBADANBgkq')}`,
      `first: ${R}(cut off) Here is the whole one: ${R}`,
    ],
  ]);
});

describe('redacted JSON', () => {
  it('stays JSON: a field is cut inside its string, a number is left', () => {
    const value = {
      prompt: `export OPENAI_API_KEY="${OPENAI_PROJECT}" and "Token": "${VALUE}"`,
      apiKey: VALUE,
      pin_token: 12345678901,
      note: "DB_PASSWORD='it\"s-a-secret-99'",
    };
    const json = redactedJson(value);
    expect(json).not.toMatch(/Abc123Def|zzEnvApiKey|a-secret-99/);
    expect(JSON.parse(json)).toEqual({
      prompt: `export OPENAI_API_KEY="${R}" and "Token": "${R}"`,
      apiKey: R,
      pin_token: 12345678901,
      note: `DB_PASSWORD='${R}'`,
    });
  });
});
