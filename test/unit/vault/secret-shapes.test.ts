import { describe, expect, it } from 'vitest';
import { REDACTED, redactedJson, redactValue } from '../../../electron/vault/redactor';
import { leavesAsWritten, readsOnce, takesOut } from '../../support/redaction-cases';

const R = REDACTED;
const OPENAI_PROJECT = 'sk-proj-Abc123Def456Ghi789Jkl012Mno345Pqr678Stu901';
const OPENAI_LEGACY = 'sk-Zq3xT9vB2nM4kL7pR1sW8yH5jF6dG0cA3eU9iO2qW4rT7yU1';
const GITHUB_BODY = 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8';
const AWS_SECRET = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';
const VALUE = 'zzEnvApiKeyValue0123456789abcdefXYZ';

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
    ['an npm token', `publish with npm_${GITHUB_BODY} from CI`, `publish with ${R} from CI`],
    [
      'an npm token in .npmrc',
      `//registry.npmjs.org/:_authToken=npm_${GITHUB_BODY}`,
      `//registry.npmjs.org/:_authToken=${R}`,
    ],
    ['a Hugging Face token', `HF hf_${GITHUB_BODY.slice(0, 34)} for the hub`, `HF ${R} for the hub`],
    ['a Stripe webhook secret', 'signing with whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', `signing with ${R}`],
    ['a Google API key', 'the key AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY works', `the key ${R} works`],
    [
      'a PyPI token',
      'twine upload -p pypi-AgEIcHlwaS5vcmcCJGE0ZjY4ZjM3LWE3YjAtNDc3Ni1iYWY0LTcyYTkzNWQ0YjBlZAACKlszLCJhYmMiXQ dist/*',
      `twine upload -p ${R} dist/*`,
    ],
    [
      "a Slack incoming webhook's secret, the host and ids kept",
      'POST to https://hooks.slack.com/services/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 now',
      `POST to https://hooks.slack.com/services/T0A1B2C3D/B0E4F5G6H/${R} now`,
    ],
    [
      "a Slack workflow's webhook secret",
      'https://hooks.slack.com/workflows/T0A1B2C3D/A0E4F5G6H/123456789012345678/aB3dE5fG7hJ9kL1mN3pQ5rS7',
      `https://hooks.slack.com/workflows/T0A1B2C3D/A0E4F5G6H/123456789012345678/${R}`,
    ],
    [
      "a Slack trigger's webhook secret",
      'https://hooks.slack.com/triggers/T0A1B2C3D/1234567890123/aB3dE5fG7hJ9kL1mN3pQ5rS7a1b2c3d4',
      `https://hooks.slack.com/triggers/T0A1B2C3D/1234567890123/${R}`,
    ],
    [
      "a Docker config's registry token",
      '{"auths":{"r.io":{"registrytoken":"a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6"}}}',
      `{"auths":{"r.io":{"registrytoken":"${R}"}}}`,
    ],
    [
      "a Discord webhook's token, the id kept",
      '"url": "https://discord.com/api/webhooks/123456789012345678/AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-abcdef"',
      `"url": "https://discord.com/api/webhooks/123456789012345678/${R}"`,
    ],
    [
      "a Microsoft Teams incoming webhook's secret, the tenant and ids kept",
      'POST https://contoso.webhook.office.com/webhookb2/3f2504e0-4f89-11d3-9a0c-0305e82c3301@72f988bf-86f1-41af-91ab-2d7cd011db47/IncomingWebhook/9f8e7d6c5b4a39281706f5e4d3c2b1a0/6a1b2c3d-4e5f-6789-abcd-ef0123456789 now',
      `POST https://contoso.webhook.office.com/webhookb2/3f2504e0-4f89-11d3-9a0c-0305e82c3301@72f988bf-86f1-41af-91ab-2d7cd011db47/IncomingWebhook/${R} now`,
    ],
    [
      "an older Office 365 connector's webhook secret, in JSON",
      '"url": "https://outlook.office.com/webhook/3f2504e0-4f89-11d3-9a0c-0305e82c3301@72f988bf-86f1-41af-91ab-2d7cd011db47/IncomingWebhook/9f8e7d6c5b4a39281706f5e4d3c2b1a0/6a1b2c3d-4e5f-6789-abcd-ef0123456789"',
      `"url": "https://outlook.office.com/webhook/3f2504e0-4f89-11d3-9a0c-0305e82c3301@72f988bf-86f1-41af-91ab-2d7cd011db47/IncomingWebhook/${R}"`,
    ],
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
      "an Azure storage connection string's account key alone",
      'DefaultEndpointsProtocol=https;AccountName=myacct;AccountKey=Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==;EndpointSuffix=core.windows.net',
      `DefaultEndpointsProtocol=https;AccountName=myacct;AccountKey=${R};EndpointSuffix=core.windows.net`,
    ],
    [
      "an Azure Service Bus connection string's shared access key alone",
      'Endpoint=sb://ns.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=abc123DEF456ghi789JKL012mno345PQR678stu901V=',
      `Endpoint=sb://ns.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=${R}`,
    ],
    [
      'an Azure connection string in JSON',
      '{"AzureWebJobsStorage":"DefaultEndpointsProtocol=https;AccountName=myacct;AccountKey=Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="}',
      `{"AzureWebJobsStorage":"DefaultEndpointsProtocol=https;AccountName=myacct;AccountKey=${R}"}`,
    ],
    [
      "a Docker config's identity token",
      '{"auths":{"registry.example.com":{"identitytoken":"a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6"}}}',
      `{"auths":{"registry.example.com":{"identitytoken":"${R}"}}}`,
    ],
    [
      "Rails' secret_key_base",
      'secret_key_base: 8c9f6e2d1a3b5c7d9e0f1a2b3c4d5e6f7a8b9c0d',
      `secret_key_base: ${R}`,
    ],
    ["Rails' SECRET_KEY_BASE", 'SECRET_KEY_BASE=8c9f6e2d1a3b5c7d9e0f1a2b3c4d5e6f', `SECRET_KEY_BASE=${R}`],
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
      'a YAML password on the next line',
      'db:\n  password:\n    S3cretPassw0rd-long\n',
      `db:\n  password:\n    ${R}\n`,
    ],
    ['a YAML key on the next line', 'api_key:\r\n  zzEnvApiKeyValue0123456789', `api_key:\r\n  ${R}`],
    [
      'a YAML password on the next line, then a comment',
      'password:\n  S3cretPassw0rd-long # rotated monthly',
      `password:\n  ${R} # rotated monthly`,
    ],
    [
      'a YAML password in a literal block, the next key kept',
      'db:\n  password: |\n    correct horse battery staple\n  user: app\n',
      `db:\n  password: |\n    ${R}\n  user: app\n`,
    ],
    [
      'a YAML private key in a folded block, an empty line among its lines',
      'private_key: >-\n  MIIEvQIBADANBgkq\n\n  hkiG9w0BAQEFAASC\n    xYz0123456789\nnext: 1',
      `private_key: >-\n  ${R}\nnext: 1`,
    ],
    [
      'a YAML client secret in a block with an indentation indicator',
      `client_secret: |2-\r\n  ${VALUE}\r\n`,
      `client_secret: |2-\r\n  ${R}\r\n`,
    ],
    [
      "a Docker config's auth, user:password in base64",
      '{"auths": {"registry.example.com": {"auth": "YW5hOlMzY3JldFBhc3N3MHJkLTk5"}}}',
      `{"auths": {"registry.example.com": {"auth": "${R}"}}}`,
    ],
    [
      "npm's _auth in .npmrc",
      '//registry.npmjs.org/:_auth=YW5hOlMzY3JldFBhc3N3MHJkLTk5',
      `//registry.npmjs.org/:_auth=${R}`,
    ],
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
    ['a Token header, its scheme kept', 'Authorization: Token 9f8e7d6c5b4a3210', `Authorization: Token ${R}`],
    [
      'a Digest header, its parameters taken with the response',
      'Authorization: Digest username="ana", realm="api", nonce="dcd98b7102dd", uri="/", response="6629fae49393a05397450978507c4ef1"\nAccept: */*',
      `Authorization: Digest ${R}\nAccept: */*`,
    ],
    [
      'an AWS signature header',
      'Authorization: AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/iam/aws4_request, SignedHeaders=host;x-amz-date, Signature=5d672d79c15b13162d9279b0855cfba6',
      `Authorization: AWS4-HMAC-SHA256 ${R}`,
    ],
    [
      'a Proxy-Authorization header',
      'Proxy-Authorization: Negotiate YIIGhgYGKwYBBQUCoIIGejCCBnag',
      `Proxy-Authorization: Negotiate ${R}`,
    ],
    [
      'a Token header in curl, the quote and the URL kept',
      `curl -H 'Authorization: Token 9f8e7d6c5b4a3210' https://api.example.com`,
      `curl -H 'Authorization: Token ${R}' https://api.example.com`,
    ],
    [
      'a Token header in JSON',
      '{"Authorization":"Token 9f8e7d6c5b4a3210","Accept":"*/*"}',
      `{"Authorization":"Token ${R}","Accept":"*/*"}`,
    ],
    [
      'an authorization header with no scheme',
      'Authorization: 9f8e7d6c5b4a39281706f5e4d3c2b1a0',
      `Authorization: ${R}`,
    ],
    [
      'an authorization header with no scheme in curl, the quote kept',
      `curl -H 'authorization: dXNlcjpwYXNzd29yZDEyMw' https://api.example.com`,
      `curl -H 'authorization: ${R}' https://api.example.com`,
    ],
    [
      'an authorization with no scheme, then a word',
      'Authorization: 9f8e7d6c5b4a3928 (the CI account)',
      `Authorization: ${R} (the CI account)`,
    ],
    ['an authorization written with "="', 'Authorization=Token 9f8e7d6c5b4a3210', `Authorization=Token ${R}`],
    [
      'a password given as a token, starting with "$"',
      'Authorization: Token $ecr3t-Passw0rd!',
      `Authorization: Token ${R}`,
    ],
    [
      'a password of several words after a scheme, in quotes',
      `Authorization: "Token $ecr3t Passw0rd" then\ncurl -H 'Authorization: Token S3cret Passw0rd!' x`,
      `Authorization: "Token ${R}" then\ncurl -H 'Authorization: Token ${R}' x`,
    ],
    [
      'a password of several words after a scheme, in JSON',
      '{"Authorization":"Token $ecr3t Passw0rd","Accept":"*/*"} {\\"h\\":\\"Authorization: Token $ecr3t Passw0rd\\"}',
      `{"Authorization":"Token ${R}","Accept":"*/*"} {\\"h\\":\\"Authorization: Token ${R}\\"}`,
    ],
    [
      'a token after its scheme starting with "!", the sentence kept',
      'Use Authorization: Bearer !x9f8e7d6c5b4a3210, then retry.',
      `Use Authorization: Bearer ${R}, then retry.`,
    ],
    [
      'a password given as a token in JSON',
      '{"Authorization":"Token $ecr3t-Passw0rd!","Accept":"*/*"}',
      `{"Authorization":"Token ${R}","Accept":"*/*"}`,
    ],
    [
      'a password given as a token in a query, the next parameter kept',
      'https://e.com/?authorization=Token%20%24ecr3t-Passw0rd!&page=2',
      `https://e.com/?authorization=Token%20${R}&page=2`,
    ],
    [
      'a bearer credential in prose that starts outside token68',
      'use Bearer !x9f8e7d6c5b4a3210, then',
      `use Bearer ${R}, then`,
    ],
    [
      'a bearer credential in prose, in quotes',
      "the header is 'Bearer $9f8e7d6c5b4a3210zz'.",
      `the header is 'Bearer ${R}'.`,
    ],
    [
      'a bearer credential in JSON with a sign in it',
      '{"note":"Bearer 9f8e7d6c5b4a#3210"}',
      `{"note":"Bearer ${R}"}`,
    ],
    ['a bearer authorization written with "="', `authorization=Bearer ${VALUE}`, `authorization=Bearer ${R}`],
    [
      'an authorization in a query, its scheme kept',
      'GET /v1/items?authorization=Token%209f8e7d6c5b4a3210&page=2',
      `GET /v1/items?authorization=Token%20${R}&page=2`,
    ],
    ['an authorization env line', `AUTHORIZATION=${VALUE}`, `AUTHORIZATION=${R}`],
    ['a database URL', 'postgres://user:pw@host/db', `postgres://user:${R}@host/db`],
    [
      'a URL password with symbols',
      'postgres://admin:S3cretPassw0rd!@db.example.com/prod',
      `postgres://admin:${R}@db.example.com/prod`,
    ],
    ['a URL with no user', 'redis://:hunter22@cache:6379/0', `redis://:${R}@cache:6379/0`],
    [
      'curl -u',
      'curl -u admin:S3cretPassw0rd https://api.example.com',
      `curl -u admin:${R} https://api.example.com`,
    ],
    [
      'curl --user',
      'curl --user ana:hunter22 https://api.example.com/v1',
      `curl --user ana:${R} https://api.example.com/v1`,
    ],
    [
      'curl --user=',
      'curl --user=ana:hunter22 https://example.com',
      `curl --user=ana:${R} https://example.com`,
    ],
    [
      'curl -u with no space',
      'curl -uana:hunter22 https://example.com',
      `curl -uana:${R} https://example.com`,
    ],
    [
      'curl --proxy-user',
      'curl --proxy-user ana:hunter22 -x proxy:3128 https://e.com',
      `curl --proxy-user ana:${R} -x proxy:3128 https://e.com`,
    ],
    [
      'curl -u quoted, on a continued line',
      "curl -X POST https://api.example.com \\\n  -u 'admin:S3cret Passw0rd' -d a=b",
      `curl -X POST https://api.example.com \\\n  -u 'admin:${R}' -d a=b`,
    ],
    [
      'curl -u with a key as the user',
      'curl https://api.example.com -u key_0123456789abcdef:',
      `curl https://api.example.com -u ${R}:`,
    ],
    [
      'curl -u after other flags in one word',
      'curl -su alice:s3cretPassw0rd https://api.example.com',
      `curl -su alice:${R} https://api.example.com`,
    ],
    [
      'curl -U quoted after other flags in one word',
      `curl -sSLU "proxy-user:hunter22-long" -x proxy:3128 https://e.com`,
      `curl -sSLU "proxy-user:${R}" -x proxy:3128 https://e.com`,
    ],
    [
      'curl -u, the next command after && kept',
      'curl -u me:S3cretPassw0rd https://e.com && docker run -u 1000:1000 img',
      `curl -u me:${R} https://e.com && docker run -u 1000:1000 img`,
    ],
    [
      'curl -u quoted with a ";" in it, the next command after ";" kept',
      `curl -u 'me:S3cret;Passw0rd' https://e.com; docker run -u 1000:1000 img`,
      `curl -u 'me:${R}' https://e.com; docker run -u 1000:1000 img`,
    ],
    [
      'curl -u quoted with a "|" in it, the next command after "|" kept',
      'curl -u "me:S3cret|Passw0rd" https://e.com | docker run -u 1000:1000 img',
      `curl -u "me:${R}" https://e.com | docker run -u 1000:1000 img`,
    ],
    [
      'curl -u after a query joined with "&"',
      'curl https://e.com/v1?a=1&b=2 -u me:S3cretPassw0rd',
      `curl https://e.com/v1?a=1&b=2 -u me:${R}`,
    ],
    ['curl -b', "curl -b 'session=abc123def456ghi789' https://e.com", `curl -b 'session=${R}' https://e.com`],
    [
      'docker login -p',
      'docker login -u ana -p S3cret-pw registry.example.com',
      `docker login -u ana -p ${R} registry.example.com`,
    ],
    [
      'docker login --password after a space, quoted',
      'podman login --password "pa ss!" -u ana quay.io',
      `podman login --password "${R}" -u ana quay.io`,
    ],
    [
      'docker login --password=',
      'docker login --password=S3cret-pw r.io',
      `docker login --password=${R} r.io`,
    ],
    [
      'docker login --password alone',
      'docker login --password S3cret-pw r.io',
      `docker login --password ${R} r.io`,
    ],
    ['docker login -p=, its "=" kept', 'docker login -p=S3cret-pw r.io', `docker login -p=${R} r.io`],
    [
      "the MongoDB shell's -p",
      'mongosh -u ana -p S3cret-pw mongodb://db',
      `mongosh -u ana -p ${R} mongodb://db`,
    ],
    ["mysql's -p glued to its password", 'mysql -u root -pS3cret mydb', `mysql -u root -p${R} mydb`],
    ["mysqldump's --password=", 'mysqldump --password=hunter2 mydb', `mysqldump --password=${R} mydb`],
    [
      'a password echoed into docker login --password-stdin',
      'echo hunter2pw | docker login --password-stdin -u ana r.io',
      `echo ${R} | docker login --password-stdin -u ana r.io`,
    ],
    [
      'a quoted password echoed with -n into helm registry login',
      "echo -n 'S3cret pw' |  helm registry login r.io -u ana --password-stdin && echo done",
      `echo -n '${R}' |  helm registry login r.io -u ana --password-stdin && echo done`,
    ],
    [
      'a password echoed into sudo -S, among its other options too',
      "echo 'S3cret pw' | sudo -S apt update\necho hunter22 | sudo -u root -kS systemctl restart app",
      `echo '${R}' | sudo -S apt update\necho ${R} | sudo -u root -kS systemctl restart app`,
    ],
    [
      "Redis' AUTH command given to redis-cli or typed at its prompt",
      'redis-cli -h r.io AUTH default S3cretPw99\nredis-cli AUTH "S3cret pw"\n127.0.0.1:6379> AUTH S3cretPw99\nlocalhost:6379[1]> auth default S3cretPw99',
      `redis-cli -h r.io AUTH default ${R}\nredis-cli AUTH "${R}"\n127.0.0.1:6379> AUTH ${R}\nlocalhost:6379[1]> auth default ${R}`,
    ],
    [
      'a password given to --password-stdin as a here-string',
      "docker login -u ana --password-stdin ghcr.io <<< 'S3cret pw' && docker pull ghcr.io/a/b",
      `docker login -u ana --password-stdin ghcr.io <<< '${R}' && docker pull ghcr.io/a/b`,
    ],
    [
      "a password printed with printf '%s' into --password-stdin",
      "printf '%s\\n' 'S3cret pw' | podman login --password-stdin r.io",
      `printf '%s\\n' '${R}' | podman login --password-stdin r.io`,
    ],
    [
      'SSHPASS for sshpass -e',
      'SSHPASS=hunter2pw sshpass -e ssh ana@host',
      `SSHPASS=${R} sshpass -e ssh ana@host`,
    ],
    ['SSHPASS exported, quoted', 'export SSHPASS="hunter2pw"', `export SSHPASS="${R}"`],
    [
      "redis-cli's -a, its port kept",
      'redis-cli -h host -p 6380 -a hunter2pw ping',
      `redis-cli -h host -p 6380 -a ${R} ping`,
    ],
    ["redis-cli's --pass", 'redis-cli --user ana --pass hunter2pw', `redis-cli --user ana --pass ${R}`],
    ['REDISCLI_AUTH', 'REDISCLI_AUTH=hunter2pw redis-cli ping', `REDISCLI_AUTH=${R} redis-cli ping`],
    [
      "redis-cli's URL",
      'redis-cli -u redis://ana:hunter2pw@host:6379',
      `redis-cli -u redis://ana:${R}@host:6379`,
    ],
    [
      "htpasswd's password, its last argument",
      'htpasswd -b .htpasswd ana hunter2pw',
      `htpasswd -b .htpasswd ana ${R}`,
    ],
    [
      "htpasswd's password printed, quoted",
      'htpasswd -nbB ana "S3cret pw" > out',
      `htpasswd -nbB ana "${R}" > out`,
    ],
    [
      "sshpass's -p, ssh's port kept",
      'sshpass -p hunter2 ssh -p 2222 ana@host',
      `sshpass -p ${R} ssh -p 2222 ana@host`,
    ],
    [
      'PGPASSWORD before psql',
      'PGPASSWORD=hunter2-db psql -h db -U ana',
      `PGPASSWORD=${R} psql -h db -U ana`,
    ],
    [
      'curl --cookie with two cookies, the short one kept',
      'curl --cookie "sid=0123456789abcdef; lang=en" https://e.com',
      `curl --cookie "sid=${R}; lang=en" https://e.com`,
    ],
    [
      'curl -b bare, after other flags in one word',
      'curl -sLb sessionid=k2j3h4k2j3h4k2 https://e.com',
      `curl -sLb sessionid=${R} https://e.com`,
    ],
    [
      'curl --cookie=',
      'curl --cookie=sid=0123456789abcdef https://e.com',
      `curl --cookie=sid=${R} https://e.com`,
    ],
    [
      'a .netrc entry over several lines',
      'machine api.heroku.com\n  login ana@example.com\n  password 9f8e7d6c-5b4a-3928-1706-f5e4d3c2b1a0\n',
      `machine api.heroku.com\n  login ana@example.com\n  password ${R}\n`,
    ],
    [
      'a .netrc entry on one line, its password before its login',
      'machine ftp.example.com password S3cretPassw0rd login ana',
      `machine ftp.example.com password ${R} login ana`,
    ],
    [
      'a Cookie header',
      'Cookie: session=abc123def456ghi789; theme=dark; csrftoken=Zx81Kq0PaQ7e',
      `Cookie: session=${R}; theme=dark; csrftoken=${R}`,
    ],
    [
      'a Set-Cookie header, its attributes kept',
      'set-cookie: sid=s%3Aabcdef0123456789.xyz; Path=/; Domain=example.com; HttpOnly',
      `set-cookie: sid=${R}; Path=/; Domain=example.com; HttpOnly`,
    ],
    [
      'a Cookie header in curl',
      `curl -H "Cookie: sid=0123456789abcdef" https://e.com`,
      `curl -H "Cookie: sid=${R}" https://e.com`,
    ],
    [
      'a Cookie header in a template literal, its closing backtick kept',
      'fetch(url, { headers: { Cookie: `sid=0123456789abcdef` } })',
      `fetch(url, { headers: { Cookie: \`sid=${R}\` } })`,
    ],
    [
      'a Cookie header in JSON',
      '{"Cookie":"sid=0123456789abcdef; lang=en"}',
      `{"Cookie":"sid=${R}; lang=en"}`,
    ],
    [
      'a session cookie set in a script, its attributes kept',
      'document.cookie = "sid=abc123def456ghi789; path=/; secure";',
      `document.cookie = "sid=${R}; path=/; secure";`,
    ],
    [
      'a remember-me cookie set in a script',
      "document.cookie='remember_user_token=W1sxXSwiJDJhJDEwIn0; max-age=2592000'",
      `document.cookie='remember_user_token=${R}; max-age=2592000'`,
    ],
    [
      'a PHP session cookie set in a script',
      'document.cookie = `PHPSESSID=k2j3h4k2j3h4k2`',
      `document.cookie = \`PHPSESSID=${R}\``,
    ],
    [
      'a cookie of any name set in a script, when its value looks random',
      'document.cookie = "id=9f8e7d6c5b4a39281706f5e4d3c2b1a0";',
      `document.cookie = "id=${R}";`,
    ],
    [
      'a uuid cookie set in a script, its attributes kept',
      "document.cookie = 'u=3f2a9c1e-4b5d-4e6f-8a9b-0c1d2e3f4a5b; path=/'",
      `document.cookie = 'u=${R}; path=/'`,
    ],
    [
      'a git remote with a token as its user',
      'git remote add origin https://9f8e7d6c5b4a39281706f5e4d3c2b1a0@github.com/ana/app.git',
      `git remote add origin https://${R}@github.com/ana/app.git`,
    ],
    [
      'a git remote with a token after x-access-token',
      'https://x-access-token:9f8e7d6c5b4a39281706f5e4d3c2b1a0@github.com/ana/app.git',
      `https://x-access-token:${R}@github.com/ana/app.git`,
    ],
    [
      'a URL in an env line',
      'DATABASE_URL=mongodb+srv://app:pa55word@cluster0.example.net/',
      `DATABASE_URL=mongodb+srv://app:${R}@cluster0.example.net/`,
    ],
  ]);
});

describe("a browser's saved requests (HAR) and other name/value pairs", () => {
  takesOut([
    [
      'a Cookie header',
      '{"name":"Cookie","value":"sid=0123456789abcdef; lang=en"}',
      `{"name":"Cookie","value":"sid=${R}; lang=en"}`,
    ],
    [
      "a response's Set-Cookie headers, one a line, their attributes kept",
      String.raw`{"name":"set-cookie","value":"sid=0123456789abcdef; Path=/\nremember=k2j3h4k2j3h4k2; HttpOnly"}`,
      String.raw`{"name":"set-cookie","value":"sid=${R}; Path=/\nremember=${R}; HttpOnly"}`,
    ],
    [
      'a list of cookies, whatever their names',
      '"cookies": [{"name": "session", "value": "abc123def456ghi789", "path": "/"}, {"name": "lang", "value": "en"}]',
      `"cookies": [{"name": "session", "value": "${R}", "path": "/"}, {"name": "lang", "value": "en"}]`,
    ],
    [
      'a Basic authorization header, its scheme kept',
      '{"name":"Authorization","value":"Basic dXNlcjpwYXNzd29yZDEyMzQ1Njc4OTA="}',
      `{"name":"Authorization","value":"Basic ${R}"}`,
    ],
    [
      'a Token authorization header',
      '{"name":"authorization","value":"Token 9f8e7d6c5b4a3210"}',
      `{"name":"authorization","value":"Token ${R}"}`,
    ],
    [
      'a header named like a credential, pretty-printed',
      `{\n  "name": "X-Api-Key",\n  "value": "${VALUE}"\n}`,
      `{\n  "name": "X-Api-Key",\n  "value": "${R}"\n}`,
    ],
    [
      "a query's access token",
      `"queryString":[{"name":"access_token","value":"${VALUE}"}]`,
      `"queryString":[{"name":"access_token","value":"${R}"}]`,
    ],
    [
      'a pair with other members between its name and its value',
      `{"name":"API_KEY","type":"secret","enabled":true,"value":"${VALUE}"}`,
      `{"name":"API_KEY","type":"secret","enabled":true,"value":"${R}"}`,
    ],
    [
      'a pair with its value first and other members before its name',
      `{"value":"${VALUE}", "description": "the key", "key": "API_KEY"}`,
      `{"value":"${R}", "description": "the key", "key": "API_KEY"}`,
    ],
    [
      'a pair with an object between its name and its value',
      `{"name":"API_KEY","meta":{"a":1,"value":"x"},"value":"${VALUE}"}`,
      `{"name":"API_KEY","meta":{"a":1,"value":"x"},"value":"${R}"}`,
    ],
    [
      'a pair with its value first and an object before its name, pretty-printed',
      `{\n  "value": "${VALUE}",\n  "meta": { "rotated": "2026-01" },\n  "name": "API_KEY"\n}`,
      `{\n  "value": "${R}",\n  "meta": { "rotated": "2026-01" },\n  "name": "API_KEY"\n}`,
    ],
    [
      'a pair with an object between, escaped in a JSON string',
      `{\\"name\\":\\"API_KEY\\",\\"meta\\":{\\"a\\":1},\\"value\\":\\"${VALUE}\\"}`,
      `{\\"name\\":\\"API_KEY\\",\\"meta\\":{\\"a\\":1},\\"value\\":\\"${R}\\"}`,
    ],
    [
      'a pair with other members between, escaped in a JSON string',
      `{\\"name\\":\\"API_KEY\\",\\"type\\":\\"secret\\",\\"value\\":\\"${VALUE}\\"}`,
      `{\\"name\\":\\"API_KEY\\",\\"type\\":\\"secret\\",\\"value\\":\\"${R}\\"}`,
    ],
    [
      'a YAML pair with a comment line between its name and its value',
      `- name: API_KEY\n  # rotated monthly\n  value: ${VALUE}\n- name: LOG_LEVEL\n  value: debug`,
      `- name: API_KEY\n  # rotated monthly\n  value: ${R}\n- name: LOG_LEVEL\n  value: debug`,
    ],
    [
      'a YAML pair with other keys between its name and its value',
      `- name: API_KEY\n  description: the payments key\n  type: secret\n  value: ${VALUE}`,
      `- name: API_KEY\n  description: the payments key\n  type: secret\n  value: ${R}`,
    ],
    [
      'a YAML pair with its value first and another key before its name',
      `- value: "${VALUE}"\n  type: secret\n  name: API_KEY`,
      `- value: "${R}"\n  type: secret\n  name: API_KEY`,
    ],
    [
      'a YAML pair with its value first and a comment line before its name',
      `- value: ${VALUE}\n  # the key\n  name: API_KEY`,
      `- value: ${R}\n  # the key\n  name: API_KEY`,
    ],
    [
      'a Kubernetes env var in YAML',
      `env:\n  - name: API_KEY\n    value: ${OPENAI_LEGACY.replace('sk-', 'zz')}\n  - name: LOG_LEVEL\n    value: debug`,
      `env:\n  - name: API_KEY\n    value: ${R}\n  - name: LOG_LEVEL\n    value: debug`,
    ],
    [
      'a Kubernetes env var in YAML, quoted',
      `- name: "DB_PASSWORD"\n  value: "hunter2 long pass"`,
      `- name: "DB_PASSWORD"\n  value: "${R}"`,
    ],
    [
      'an authorization header in YAML, its scheme kept',
      '- name: Authorization\n  value: Token 9f8e7d6c5b4a3210  # the CI account\n',
      `- name: Authorization\n  value: Token ${R}  # the CI account\n`,
    ],
    [
      'a pair with its value first, in JSON',
      `{"value": "${VALUE}", "name": "API_KEY"}`,
      `{"value": "${R}", "name": "API_KEY"}`,
    ],
    [
      'a Postman pair with its value first, pretty-printed',
      '{\n  "value": "hunter2-long",\n  "key": "password"\n}',
      `{\n  "value": "${R}",\n  "key": "password"\n}`,
    ],
    [
      'a value holding an escaped quote',
      String.raw`{"name": "DB_PASSWORD", "value": "ab\"cd-s3cr3t-99"}`,
      `{"name": "DB_PASSWORD", "value": "${R}"}`,
    ],
    [
      'a value first holding an escaped quote',
      String.raw`{"value": "ab\"cd-s3cr3t-99", "name": "DB_PASSWORD"}`,
      `{"value": "${R}", "name": "DB_PASSWORD"}`,
    ],
    [
      'a YAML pair with its value first',
      `env:\n  - value: ${VALUE}\n    name: API_KEY\n  - value: debug\n    name: LOG_LEVEL`,
      `env:\n  - value: ${R}\n    name: API_KEY\n  - value: debug\n    name: LOG_LEVEL`,
    ],
    [
      'a YAML pair with its value first, quoted, then a comment',
      '- value: "hunter2 long pass" # rotated\n  name: "DB_PASSWORD"',
      `- value: "${R}" # rotated\n  name: "DB_PASSWORD"`,
    ],
    ['a YAML flow pair', `- {name: API_KEY, value: ${VALUE}}`, `- {name: API_KEY, value: ${R}}`],
    [
      'a YAML flow pair with its value first',
      `{value: ${VALUE}, name: API_KEY}`,
      `{value: ${R}, name: API_KEY}`,
    ],
    [
      "a script's env list",
      "env: [{ name: 'DB_PASSWORD', value: 'hunter2-long' }]",
      `env: [{ name: 'DB_PASSWORD', value: '${R}' }]`,
    ],
    [
      "a Postman request's password",
      '{"key":"password","value":"hunter2-long","type":"text"}',
      `{"key":"password","value":"${R}","type":"text"}`,
    ],
  ]);

  leavesAsWritten([
    '{"name":"theme","type":"string","value":"dark-mode-2024"}',
    '{"name":"API_KEY","type":"secret","value":"$API_KEY"}',
    '[{"name":"API_KEY"},{"value":"abc123def456ghi789"}]',
    `{"name":"API_KEY",${'"a":1,'.repeat(17)}"value":"see the vault"}`,
    '{"name":"LOG_LEVEL","meta":{"a":1},"value":"debug-2024-abc123"}',
    '{"name":"API_KEY","meta":{"a":{"b":{"c":1}}},"value":"abc123def456ghi789"}',
    `{"name":"API_KEY","meta":{${'"a":1,'.repeat(20)}"z":1},"value":"abc123def456ghi789"}`,
    '[{"name":"API_KEY","meta":{"a":1}},{"value":"abc123def456ghi789"}]',
    '- name: LOG_LEVEL\n  # verbose while we debug\n  value: debug-2024',
    '- name: LOG_LEVEL\n  description: how much to say\n  value: debug-2024',
    '- name: API_KEY\n- name: BUILD_ID\n  value: abc123def456ghi789',
    `- name: API_KEY\n${'  a: 1\n'.repeat(17)}  value: abc123def456ghi789`,
    '- name: API_KEY\n  # value: abc123def456ghi789 was the old one\n  valueFrom: {secretKeyRef: {name: api}}',
    '{"name":"theme","value":"dark-mode-2024"}',
    '{"name":"session","value":"abc123def456ghi789"}',
    '{"name":"From","value":"Ana <ana@example.com>"}',
    '{"name":"Authorization","value":"Bearer <token>"}',
    '{"name":"Authorization","value":"Basic $CREDENTIALS"}',
    '{"key":"issueKey","value":"PROJ-1234567"}',
    '{"name":"page","value":"2"}',
    '"cookies": [{"name": "Chocolate chip", "value": "the best seller of 2024"}]',
    '"cookies": []',
    '- name: theme\n  value: dark',
    '- name: API_KEY\n  value: <your-api-key>',
    '- name: API_KEY\n  valueFrom:\n    secretKeyRef:\n      name: api\n      key: api-key',
    '- name: SESSION_TOKEN\n  value: $(SESSION_TOKEN)',
    'name: Ana\nvalue: 1234567890 points',
    '{"value":"dark-mode-2024","name":"theme"}',
    '- value: dark-mode-2024\n  name: THEME',
    '- value: <your-api-key>\n  name: API_KEY',
    '{name: theme, value: dark-mode-2024}',
    '{value: 5, name: retries}',
    "{ name: 'API_KEY', value: process.env.API_KEY }",
    'value: 1234567890 points\nname: Ana',
  ]);

  it('reads a YAML env list pasted into a message and stored as JSON', () => {
    const yaml = `env:\n  - name: API_KEY\n    value: "${VALUE}"\n  - name: MODE\n    value: production-2024`;
    const redacted = JSON.parse(redactedJson({ prompt: yaml })) as { prompt: string };
    expect(redacted.prompt).toBe(yaml.replace(VALUE, R));
  });

  it('reads pairs with their value first or an escaped quote in a HAR pasted into a message and stored as JSON', () => {
    const har = JSON.stringify({
      headers: [
        { value: VALUE, name: 'X-Api-Key' },
        { name: 'Authorization', value: 'Token ab"cd-9f8e7d6c5b4a' },
        { value: 'text/"html"', name: 'Accept' },
      ],
    });
    const yaml = `- value: ${VALUE}\n  name: API_KEY\n- {value: hunter2-long, name: DB_PASSWORD}`;
    const redacted = JSON.parse(redactedJson({ prompt: har, yaml })) as { prompt: string; yaml: string };
    expect(JSON.parse(redacted.prompt)).toEqual({
      headers: [
        { value: R, name: 'X-Api-Key' },
        { name: 'Authorization', value: `Token ${R}` },
        { value: 'text/"html"', name: 'Accept' },
      ],
    });
    expect(redacted.yaml).toBe(`- value: ${R}\n  name: API_KEY\n- {value: ${R}, name: DB_PASSWORD}`);
  });

  it('reads a HAR pasted into a message and stored as JSON', () => {
    const har = JSON.stringify(
      {
        request: {
          headers: [
            { name: 'Cookie', value: 'sid=0123456789abcdef' },
            { name: 'Accept', value: 'application/json' },
          ],
          cookies: [{ name: 'sid', value: '0123456789abcdef' }],
        },
      },
      null,
      2,
    );
    const redacted = JSON.parse(redactedJson({ prompt: `Why does this fail?\n${har}` })) as {
      prompt: string;
    };
    expect(redacted.prompt).toBe(`Why does this fail?\n${har.replaceAll('0123456789abcdef', R)}`);
  });
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
    'npm_config_registry=https://registry.npmjs.org/',
    'from huggingface_hub import hf_hub_download',
    'whsec_ is the prefix of a webhook secret',
    'pypi-AgE is how a PyPI token starts',
    'pip install pypi-simple-index-mirror-2024-tool',
    'https://example.com:8080/search?q=ana@example.com',
    'git clone git@github.com:deputy/app.git',
    'git clone ssh://git@github.com/deputy/app.git',
    'https://ana.lopez.2024@example.com/calendar',
    'https://github.com/ana/app/blob/3f2a9c1e4b5d4e6f8a9b0c1d2e3f4a5b/README.md',
    'https://api.example.com/v1/items/3f2a9c1e-4b5d-4e6f-8a9b-0c1d2e3f4a5b?expand=owner',
    'Lunch with Ana on Friday at 12:30, see https://example.com/a-b',
    '{"nextPageToken":"CiAKGjBpNDd2Nmp2Zml2cXRjbzk0OWRzaWkxMjAxMBIA","idempotencyKey":"run-1:call-2:3f9a0c1d2e"}',
    '{"publicKey":"MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE4f9a8b7c6d"}',
  ]);
});

describe("a credential named by a variable's name, which is no secret", () => {
  leavesAsWritten([
    'API_KEY="$OPENAI_API_KEY"',
    "API_KEY='${OPENAI_API_KEY}'",
    'set API_KEY="%OPENAI_API_KEY%"',
    "password: '%DB_PASSWORD%'",
    '$env:OPENAI_API_KEY = "$env:OPENAI_KEY"',
    "api_key: '${{ secrets.API_KEY }}'",
    "password: '{{ .Values.dbPassword }}'",
    '{"name":"API_KEY","value":"${API_KEY}"}',
    '{"value":"$API_KEY","name":"API_KEY"}',
    '- name: API_KEY\n  value: ${API_KEY}',
    '- name: DB_PASSWORD\n  value: "%DB_PASSWORD%"',
    'curl -u "admin:%API_PASSWORD%" https://api.example.com',
    'curl -u "${API_USER}:${API_PASSWORD}" https://api.example.com',
    'API_KEY=$OPENAI_API_KEY',
    'export GITHUB_TOKEN=$GH_TOKEN',
    'API_KEY=$KEY_PREFIX$KEY_SUFFIX',
    'password: ${DB_USER}${DB_PASSWORD}',
    'TOKEN=$(cat ~/.token)',
    'price: $12.50 per key',
    // A sentence's full stop or a code span's closing backtick after the variable is no part of it.
    'Run it with PGPASSWORD=$PGPASSWORD.',
    'Set `DB_PASSWORD=$DB_PASSWORD` in your shell, then `GITHUB_TOKEN=$GH_TOKEN`.',
  ]);

  takesOut([
    [
      'a password that starts with "$"',
      "curl -u 'admin:$uperS3cret!' https://e.com",
      `curl -u 'admin:${R}' https://e.com`,
    ],
    ['a bare password that starts with "$", after a name', 'password: $uperS3cret!', `password: ${R}`],
    ['a bare one in a shell line', 'DB_PASSWORD=$uperS3cret!', `DB_PASSWORD=${R}`],
    ['a bcrypt hash after a name', 'password: $2a$10$abcdefghijklmnopqrstuv', `password: ${R}`],
    [
      'a bare password in a code span, its closing backtick kept',
      'Use `DB_PASSWORD=$uperS3cret!` here',
      `Use \`DB_PASSWORD=${R}\` here`,
    ],
    ['a cookie that starts with "$"', 'Cookie: sid=$2a$10$abcdefghijklmnop', `Cookie: sid=${R}`],
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
    'https://hooks.slack.com/workflows/T0A1B2C3D/A0E4F5G6H/123456789012345678 runs the standup workflow',
    'registry_token: a setting of the mirror, see the docs',
    'Set one up at https://api.slack.com/messaging/webhooks, then post to https://hooks.slack.com/services/',
    'https://hooks.slack.com/services/T0A1B2C3D/B0E4F5G6H is the hook, its secret in the vault',
    'https://discord.com/api/webhooks is documented; our server is https://discord.com/channels/123456789012345678/2024',
    'Account key: see the customer record',
    'Teams webhooks post to https://contoso.webhook.office.com/webhookb2/ and the docs are at learn.microsoft.com',
    'the IncomingWebhook connector of outlook.office.com/webhook is retired',
    'accountKey: customerId',
    'AccountName=myacct;EndpointSuffix=core.windows.net',
    'identity token: what the registry gives after a login',
    "secret_key_base: <%= ENV['SECRET_KEY_BASE'] %>",
    'secret_key_base: ${SECRET_KEY_BASE}',
    'the key base: a list of answers',
    'database: 5432',
    'auth: required',
    '"auth": "oauth2-client-credentials"',
    '{"auth": {"type": "basic", "user": "ana"}}',
    'auth=c29tZXRoaW5nZWxzZWhlcmU=',
    'oauth: c2VydmljZS1hY2NvdW50OnRva2Vu',
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

describe('options and headers that only look like credentials', () => {
  leavesAsWritten([
    'docker run -p 8080:80 nginx',
    'docker login --password-stdin -u ana r.io',
    'echo "$DOCKER_PASSWORD" | docker login --password-stdin -u ana r.io',
    'cat pw.txt | docker login --password-stdin; echo done | tee log',
    'echo hello | grep h; docker login --password-stdin',
    '"Authorization: Token expires in 30 days" and \'Authorization: Token see the docs\'',
    'Authorization: "Token $USER $PASS"; Authorization: "Bearer <token> here"; Authorization: Token $ecr3t Passw0rd',
    'echo y | sudo pacman -S vim; echo y | sudo -u root pacman -S vim; echo hi | sudo -E tee -S x',
    'echo "$SUDO_PASSWORD" | sudo -S apt update; echo hi | sudo tee -a /etc/hosts',
    'redis-cli AUTH; redis-cli GET auth; redis-cli AUTH a b c\nAUTH is required by the server: 127.0.0.1:6379> PING',
    'docker login -u ana --password-stdin ghcr.io <<< "$CR_PAT"; docker login ghcr.io <<< yes; cat <<< S3cretPw99',
    "printf '%d' 42 | docker login --password-stdin r.io",
    'redis-cli -h host -p 6380 ping; redis-cli -a',
    'htpasswd -c .htpasswd ana; htpasswd -D .htpasswd ana; htpasswd -b .htpasswd ana',
    'sshpass: a tool to feed a password to ssh',
    'SSHPASS="$PW" sshpass -e ssh ana@host',
    'docker login -u ana -p "$DOCKER_PASSWORD" r.io',
    'mysql -p mydb',
    'mongosh -p',
    'mongosh --port 27017 -u ana -p',
    'mysql -u root -p -h db.example.com',
    'ssh -p 2222 ana@host && psql -p 5432 -h db',
    'Run mysql, then docker login; -p is the port elsewhere',
    'docker run -u 1000:1000 -v ./data:/data image',
    'curl -fsSL https://get.example.com/install.sh | sh && docker run -u 1000:1000 image',
    'curl -s https://example.com || rsync -u backup:/var/data/ ./data/',
    'docker exec --user www-data:www-data app php artisan migrate',
    'rsync -u backup:/var/data/ ./data/',
    'git push -u origin feature:feature',
    'curl -u "$API_USER:$API_PASSWORD" https://api.example.com',
    'curl -u ana https://api.example.com',
    'curl --user-agent "Mozilla/5.0 (X11:Linux)" https://example.com',
    'curl -u user:',
    'curl -su ana https://api.example.com',
    'curl -b cookies.txt https://example.com',
    'curl -c jar.txt -b jar.txt https://example.com/login',
    'curl --cookie "$COOKIE_FILE" https://example.com',
    'curl -b "session=$SESSION_ID" https://example.com',
    'curl -b "theme=dark" https://example.com',
    'curl --cookie-jar session-cookies.txt https://example.com',
    'grep -b "sid=0123456789abcdef" access.log',
    'git checkout -b feature/login-2024',
    'Favourite cookie: oatmeal raisin',
    'The machine learning password manager stores things',
    'machine example.com login ana password $NETRC_PASSWORD',
    'Log in to the machine named build-01 with login ana and password you were given',
    'Authorization: required',
    'authorization=pending',
    'Authorization: INV-2024-000123-approved',
    'Authorization: 2024-05-01, signed by Ana',
    'Authorization: counter-signature-required-by-finance',
    'Authorization: $API_TOKEN',
    'Authorization: pending manager approval',
    'Authorization: Token <your-token>',
    'Authorization: Token $API_TOKEN',
    'Authorization: Token ${API_TOKEN}',
    'Authorization: Bearer $(cat token.txt)',
    'The Bearer scheme (RFC 6750) sends Bearer <token>; use Bearer !important-things-first as a rule',
    'Bearer $ACCESS_TOKEN, or Bearer ${{ secrets.TOKEN }}',
    'Authorization: Token !important, ask Ana',
    'Authorization: Digest of the meeting notes, attached',
    'The form says Authorization: signed by a director before anything is paid',
    'Cookie: lang=en; theme=dark',
    'Set-Cookie: id=a3fWa; Expires=Wed, 21 Oct 2015 07:28:00 GMT; Secure',
    'document.cookie = "theme=dark-mode-2024"',
    'document.cookie = "consent=analytics-2024-05; path=/"',
    'document.cookie = "sidebar=collapsed-left-2"',
    'document.cookie = "_ga=GA1.2.1234567890.1234567890; path=/"',
    'document.cookie = "tz=Europe/Madrid; path=/"',
    'document.cookie = "last_seen=2024-05-01T10:30:00Z"',
    'document.cookie = "cart=summer-sale-items-2024"',
    'document.cookie = "session=" + sessionId;',
    'document.cookie = `sid=${sid}; path=/`',
    'document.cookie = "sid=short"',
    'The site reads document.cookie = "…" to keep you signed in',
    'curl -H "Cookie: session=$SESSION_COOKIE" https://api.example.com',
    'fetch(url, { headers: { Cookie: `session=${sessionToken}` } })',
  ]);
});

describe('a credential named at the end of a line, and what follows it', () => {
  leavesAsWritten([
    'Password:\n  Remember to change it every month',
    'api_key:\n  description: The key of the account',
    'token:\n  user2: bob',
    'password:\n  - item12345',
    'password:\nS3cretPassw0rd-but-not-indented',
    'secrets:\n  api_key: ${{ secrets.API_KEY }}',
    'Password:\n  12-characters minimum, one digit',
    'Password:\n  Win11-laptop uses the same one as the router',
    'description: |\n  The password field holds 12 characters or more\n',
    'token: |\n  Thanks!\n',
    'secret: >\n  friendship\n',
    '| password: |\n|---|\n| a1b2c3d4e5 |',
    'password: |\nS3cretPassw0rd-but-not-indented',
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
      yaml: 'password:\n  S3cretPassw0rd-long',
      yamlMap: 'password:\n  S3cretPassw0rd-long\nuser: ana',
      curl: "curl -u 'ana:hunter22-long' https://e.com \\\n -d x",
      cookie: 'Cookie: sid=0123456789abcdef',
      block: 'password: |\n  S3cretPassw0rd-long\n  "quoted" line\nuser: ana',
      script: 'document.cookie = "sid=0123456789abcdef; path=/"',
      docker: '{"auths": {"ghcr.io": {"auth": "YW5hOlMzY3JldFBhc3N3MHJkLTk5"}}}',
      netrc: 'machine api.example.com\nlogin ana\npassword S3cretPassw0rd-netrc',
    };
    const json = redactedJson(value);
    expect(json).not.toMatch(
      /Abc123Def|zzEnvApiKey|a-secret-99|S3cretPassw0rd|hunter22|0123456789abcdef|YW5hOlMz/,
    );
    expect(JSON.parse(json)).toEqual({
      prompt: `export OPENAI_API_KEY="${R}" and "Token": "${R}"`,
      apiKey: R,
      pin_token: 12345678901,
      note: `DB_PASSWORD='${R}'`,
      yaml: `password:\n  ${R}`,
      yamlMap: `password:\n  ${R}\nuser: ana`,
      curl: `curl -u 'ana:${R}' https://e.com \\\n -d x`,
      cookie: `Cookie: sid=${R}`,
      block: `password: |\n  ${R}\nuser: ana`,
      script: `document.cookie = "sid=${R}; path=/"`,
      docker: `{"auths": {"ghcr.io": {"auth": "${R}"}}}`,
      netrc: `machine api.example.com\nlogin ana\npassword ${R}`,
    });
  });
});

describe('a command in JSON, where each string holds its own text', () => {
  it("reads a password option in its own command's string only", () => {
    const value = {
      messages: [
        { text: 'docker login -u ana -p "S3cret pw" r.io' },
        { text: 'then docker run -p 8080:80 nginx' },
        { text: 'mysql -pS3cret mydb; mysql -p otherdb' },
      ],
    };
    expect(JSON.parse(redactedJson(value))).toEqual({
      messages: [
        { text: `docker login -u ana -p "${R}" r.io` },
        { text: 'then docker run -p 8080:80 nginx' },
        { text: `mysql -p${R} mydb; mysql -p otherdb` },
      ],
    });
  });
  it('reads an echoed password, redis-cli and htpasswd in JSON, quotes escaped', () => {
    const value = {
      messages: [
        { text: 'echo "S3cret pw" | docker login --password-stdin r.io' },
        { text: 'redis-cli -a "S3cret pw" ping' },
        { text: 'htpasswd -b .htpasswd ana "S3cret pw"' },
        { text: 'echo hunter2pw | tee x' },
        { text: 'docker login --password-stdin r.io' },
      ],
    };
    expect(JSON.parse(redactedJson(value))).toEqual({
      messages: [
        { text: `echo "${R}" | docker login --password-stdin r.io` },
        { text: `redis-cli -a "${R}" ping` },
        { text: `htpasswd -b .htpasswd ana "${R}"` },
        { text: 'echo hunter2pw | tee x' },
        { text: 'docker login --password-stdin r.io' },
      ],
    });
  });
  it('reads a token or a command at the start of a line inside a JSON string', () => {
    const text = [
      'see:',
      `ghp_${GITHUB_BODY}`,
      'AKIAIOSFODNN7EXAMPLE',
      'curl -u ana:S3cretPw https://x.io',
      'docker login -p S3cretPw r.io',
      'echo S3cretPw | docker login --password-stdin r.io',
      'machine h.io login ana password S3cretPw99',
      'machine g.io',
      'login ana',
      'password S3cretPw98',
      'ghp_ is how a GitHub token starts',
    ].join('\n');
    expect(JSON.parse(redactedJson({ text, at: 'x\tya29.notatoken' }))).toEqual({
      text: [
        'see:',
        R,
        R,
        `curl -u ana:${R} https://x.io`,
        `docker login -p ${R} r.io`,
        `echo ${R} | docker login --password-stdin r.io`,
        `machine h.io login ana password ${R}`,
        'machine g.io',
        'login ana',
        `password ${R}`,
        'ghp_ is how a GitHub token starts',
      ].join('\n'),
      at: 'x\tya29.notatoken',
    });
  });
  it("reads a curl command's -u in its own string only, not in the strings after it", () => {
    const value = {
      messages: [
        { text: 'Fetched it with curl, it is handy.' },
        { text: 'Then run docker run -u 1000:1000 myapp' },
        { text: 'and rsync -u backup@nas:/volume1/photos ./photos' },
        { text: 'curl -u admin:S3cretPassw0rd https://api.example.com' },
        { text: 'curl -X POST https://e.com \\\n  -u "ana:hunter22" -d a=b' },
        { text: 'curl -sb "sid=0123456789abcdef; lang=en" https://e.com' },
        { text: 'curl -b cookies.txt https://e.com' },
        { text: 'curl -u "ana:S3cret;Passw0rd" https://e.com && docker run -u 1000:1000 myapp' },
      ],
    };
    expect(JSON.parse(redactedJson(value))).toEqual({
      messages: [
        { text: 'Fetched it with curl, it is handy.' },
        { text: 'Then run docker run -u 1000:1000 myapp' },
        { text: 'and rsync -u backup@nas:/volume1/photos ./photos' },
        { text: `curl -u admin:${R} https://api.example.com` },
        { text: `curl -X POST https://e.com \\\n  -u "ana:${R}" -d a=b` },
        { text: `curl -sb "sid=${R}; lang=en" https://e.com` },
        { text: 'curl -b cookies.txt https://e.com' },
        { text: `curl -u "ana:${R}" https://e.com && docker run -u 1000:1000 myapp` },
      ],
    });
    expect(redactValue(value).messages[1]?.text).toBe('Then run docker run -u 1000:1000 myapp');
  });
});

describe('a long text made to make a pattern backtrack', () => {
  /** A YAML pair named like a credential: with it, the pairs' patterns read the whole text. */
  const YAML_HINT = '- name: API_KEY\n  value: x\n';
  readsOnce([
    ['cookies with no end', (n) => `Cookie: ${'a=b;'.repeat(n)}`],
    ['cookie headers with no pair', (n) => 'Set-Cookie: Cookie:'.repeat(n)],
    ['curl options with no password', (n) => `curl ${'-u -uuser --user '.repeat(n)}`],
    ['curl commands', (n) => 'curl \\\n'.repeat(n)],
    ['curl arguments with no closing quote', (n) => `curl -u a:b ${'\'"'.repeat(n)}`],
    ['pairs with other members and no value', (n) => `${YAML_HINT}${'{"name":"API_KEY","a":"b",'.repeat(n)}`],
    ['a member between with no closing quote', (n) => `{"name":"API_KEY","a":"${'b'.repeat(n)}`],
    ['values first with members and no name', (n) => `${YAML_HINT}${'{"value":"a","b":"c",'.repeat(n)}`],
    ['YAML comment lines with no value', (n) => `- name: API_KEY\n${'  # a\n'.repeat(n)}`],
    ['YAML keys with no value', (n) => `- name: API_KEY\n${'  a: b\n'.repeat(n)}`],
    ['YAML values first over other keys', (n) => `${YAML_HINT}${'- value: a\n  b: c\n'.repeat(n)}`],
    ['YAML values first over comment lines', (n) => `${YAML_HINT}${'- value: a\n  # b\n'.repeat(n)}`],
    ['docker logins with no password', (n) => 'docker login -p'.repeat(n)],
    ['a mysql password with no closing quote', (n) => `mysql -p"${'a '.repeat(n)}`],
    ['mysql commands', (n) => 'mysql \\\n'.repeat(n)],
    ['curl commands joined by separators', (n) => 'curl -u a:b && '.repeat(n)],
    ['a curl argument with no closing quote', (n) => `curl -u a:b "${'a '.repeat(n)}`],
    ['a user with no colon', (n) => `curl -u ${'a'.repeat(n)}`],
    ['curl flags with no credential option', (n) => `curl ${' -sSL'.repeat(n)} -${'s'.repeat(10 * n)}`],
    ['a cookie argument with no end', (n) => `curl -b '${'a=b;'.repeat(n)}`],
    ['cookie options with no argument', (n) => `curl ${'-b --cookie -sb '.repeat(n)}`],
    ['cookie lists with no end', (n) => '"cookies":['.repeat(n)],
    ['a name/value pair with no end', (n) => `{"name":"Cookie","value":"${'sid=a; '.repeat(n)}`],
    ['name/value pairs with no value', (n) => '{"name":"a",  "value":'.repeat(n)],
    ['a name with no end', (n) => `"name":"${'a'.repeat(n)}`],
    ['cookies set in a script with no value', (n) => 'document.cookie="sid'.repeat(n)],
    ['names at line ends', (n) => 'password:\n '.repeat(n)],
    ['block scalars with no lines', (n) => 'password: |\n'.repeat(n)],
    ['a block scalar of empty lines', (n) => `password: |\n  a${'\n'.repeat(n)}b`],
    ['block indicators after a name', (n) => `password: ${'|>'.repeat(n)}`],
    ['a block scalar under a long name', (n) => `${'a.'.repeat(n)}password: |\n  a1b2c3d4e5`],
    ['a block scalar of short lines', (n) => `token: >\n${'  a\n\n'.repeat(n)}`],
    ['token prefixes', (n) => `npm_hf_whsec_${'A'.repeat(n)}`],
    ['URL users with no end', (n) => `https://${'a1'.repeat(n)}`],
    ['variables side by side, then a character no name has', (n) => `password: ${'$A'.repeat(n)}!`],
    ['variables side by side in braces, unclosed', (n) => `API_KEY=${'${A}'.repeat(n)}\${A`],
    ['URL openings', (n) => 'https://a1b2c3d4e5f6g7h8'.repeat(n)],
    ['.netrc logins with no password', (n) => `machine a${' login b'.repeat(n)} password`],
    ['.netrc machines with no password', (n) => 'machine a login b '.repeat(n)],
    ['.netrc passwords with no entry', (n) => `${'login a password '.repeat(n)}`],
    ['authorization headers with no credentials', (n) => 'Authorization: Digest '.repeat(n)],
    ['an authorization of many parameters', (n) => `Authorization: Digest ${'a=b, '.repeat(n)}c`],
    ['an authorization parameter with no closing quote', (n) => `Authorization: Digest a="${'b'.repeat(n)}`],
    ['an authorization parameter with no value', (n) => `Authorization: Digest ${'a'.repeat(n)}=`],
    ['an authorization of one long word', (n) => `Authorization: ${'a'.repeat(n)}#`],
    ['authorizations written with "=" and no value', (n) => 'Authorization=a '.repeat(n)],
    ['Slack webhook paths with no secret', (n) => 'hooks.slack.com/services/T0123456/B0123456/'.repeat(n)],
    [
      'Slack workflow paths with no secret',
      (n) => 'hooks.slack.com/workflows/T0123456/A0123456/1234567/'.repeat(n),
    ],
    ['Discord webhook paths with no token', (n) => 'discord.com/api/webhooks/1234567890123456/a'.repeat(n)],
    [
      'Teams webhook paths with no secret',
      (n) => 'a.webhook.office.com/webhookb2/aaaaaaaa@bbbbbbbb/IncomingWebhook/a'.repeat(n),
    ],
    ['a Teams webhook id with no @', (n) => `webhook.office.com/webhookb2/${'a-'.repeat(n)}`],
    ['bearers with no credential', (n) => 'Bearer Bearer '.repeat(n)],
    ['a bearer credential of one long word', (n) => `Bearer !${'a1.'.repeat(n)}`],
    [
      'pairs with objects between and no value',
      (n) => `${YAML_HINT}${'{"name":"API_KEY","a":{"b":"c"},'.repeat(n)}`,
    ],
    ['an object between with no end', (n) => `{"name":"API_KEY","a":{${'"b",'.repeat(n)}`],
    [
      'values first before objects and no name',
      (n) => `${YAML_HINT}${'{"value":"a","b":{"c":1},'.repeat(n)}`,
    ],
    ['printf formats with no password', (n) => "printf '%s' ".repeat(n)],
    ['echoes with no pipe', (n) => 'echo a '.repeat(n)],
    ['echoes before pipes with no --password-stdin', (n) => `${'echo a | b '.repeat(n)}--password-stdin`],
    ['an echoed quote with no end', (n) => `echo "${'a '.repeat(n)}| x --password-stdin`],
    ['redis-cli passwords with no value', (n) => 'redis-cli -a --pass '.repeat(n)],
    ['htpasswd with many arguments', (n) => `htpasswd -b ${'a '.repeat(n)}"b`],
    ['SSHPASS with no value', (n) => 'SSHPASS='.repeat(n)],
    ['query signatures with no value', (n) => '?sig=&sig=;sig=SharedAccessSignature=sig='.repeat(n)],
    ['a long query signature', (n) => `?sig=${'a%2F'.repeat(n)}`],
    ['short signatures with no storage version', (n) => `?${'sig=Ab1cd&'.repeat(n)}`],
    ['quoted authorizations with no closing quote', (n) => `${'"Authorization: Token a1 '.repeat(n)}`],
    ['quoted authorizations of many words', (n) => `Authorization: "Token ${'a1 '.repeat(n)}"`],
    ['sudo options with no -S', (n) => `echo a | sudo ${'-k -u a -E --b=c '.repeat(n)}x`],
    ['AUTH commands with no end', (n) => `redis-cli ${'AUTH a a '.repeat(n)}`],
    ['redis prompts with no password', (n) => '127.0.0.1:6379> AUTH '.repeat(n)],
    ['here-strings with no password', (n) => `docker login --password-stdin ${'<<< '.repeat(n)}`],
    ['escaped signatures with no value', (n) => '\\u0026sig=%26sig%3D\\u0026sig'.repeat(n)],
    ['a name of many key_ before base', (n) => `${'key_'.repeat(n)}base: a1b2c3d4e5`],
    ['names ending in key base with no value', (n) => 'secret_key_base='.repeat(n)],
    ['a credential after a scheme ending in dots', (n) => `Authorization: Token $${'.'.repeat(n)}`],
    ['YAML names in one word', (n) => `${YAML_HINT}${'name:'.repeat(n)}`],
    ['YAML names with no value', (n) => '- name: API_KEY\n  '.repeat(n)],
    ['a YAML name with no end', (n) => `${YAML_HINT}- name: ${'a'.repeat(n)}`],
    ['a YAML value of many words', (n) => `- name: API_KEY\n  value: ${'a1 '.repeat(n)}`],
    ['a YAML value with no closing quote', (n) => `- name: API_KEY\n  value: "${'a'.repeat(n)}`],
    ['pairs with their value first and no name', (n) => `${YAML_HINT}${'{"value":"a", '.repeat(n)}`],
    ['a value first with no closing quote', (n) => `${YAML_HINT}{"value":"${'a\\"'.repeat(n)}`],
    ['an escaped value with no closing quote', (n) => `${YAML_HINT}{\\"value\\":\\"${'\\\\a'.repeat(n)}`],
    ['YAML values first in one line', (n) => `${YAML_HINT}- ${'value: a1 '.repeat(n)}`],
    ['a YAML value first of many words', (n) => `${YAML_HINT}- value: ${'a1 '.repeat(n)}x\n  nam`],
    ['flow maps with no end', (n) => `${YAML_HINT}${'{value: a '.repeat(n)}`],
    ['a flow value of many words', (n) => `${YAML_HINT}{value: ${'a1 '.repeat(n)}}`],
    ['escapes as text before hints', (n) => `${'\\nghp_\\t\\r-p '.repeat(n)}`],
    ['escapes before names and values', (n) => `${'\\u000apassword\\t- value: a\\nname:'.repeat(n)}`],
    ['names after escapes with no value', (n) => `${'\\ncurl\\tmachine a\\napi_key='.repeat(n)}`],
  ]);
  readsOnce(
    [
      ['JSON strings of many lines', (n) => JSON.stringify({ a: 'a\nb\\'.repeat(n) })],
      [
        'JSON strings of escaped line breaks before a hint',
        (n) => JSON.stringify({ b: `${'"\\n'.repeat(n)}ghp_` }),
      ],
    ],
    (json) => redactedJson(JSON.parse(json)),
  );
});
