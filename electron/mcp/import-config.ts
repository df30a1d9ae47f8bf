import {
  McpSecretsInput,
  McpServerConfigInput,
  McpServerName,
  type McpSecrets,
  type McpServerConfig,
} from '../../shared/contract';
import { asRecord } from '../store/json';

/** One server read from another app's config: its settings, and the values that go to the vault. */
export interface ImportedServer {
  name: string;
  config: McpServerConfig;
  secrets: McpSecrets;
}

export interface ImportResult {
  servers: ImportedServer[];
  skipped: { name: string; reason: string }[];
}

// A name that says it holds a credential.
const SECRET_NAME = /token|secret|key|passw|pat$|^pat_|auth|credential|cookie|session|private|bearer/i;
// A value that looks like one whatever its name: a known token prefix, or a long random-looking string.
const SECRET_VALUE = /^(?:sk-|ghp_|gho_|github_pat_|xox[abpr]-|AIza|ya29\.|glpat-|Bearer\s)/;

/** Whether an environment value or header should live in the vault rather than in settings. */
export function isSecret(name: string, value: string): boolean {
  if (SECRET_NAME.test(name) || SECRET_VALUE.test(value)) return true;
  return value.length >= 24 && /[A-Za-z]/.test(value) && /\d/.test(value) && !/[\s/\\]/.test(value);
}

/**
 * Reads the `mcpServers` block of Claude Desktop's `claude_desktop_config.json` or Gemini CLI's `settings.json`
 * (`command`/`args`/`env`/`cwd` for stdio; `url` (SSE) or `httpUrl` (Streamable HTTP) and `headers` for
 * remote servers). Secret values are set apart for the vault; a server that cannot be read is skipped with
 * the reason. Gemini CLI's `trust` is not carried over: in Deputy only the person sets a tool to run unasked.
 */
export function parseMcpServersBlock(text: string): ImportResult {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { servers: [], skipped: [{ name: '(file)', reason: 'The file is not valid JSON.' }] };
  }
  const block = asRecord(asRecord(json).mcpServers);
  const result: ImportResult = { servers: [], skipped: [] };
  for (const [rawName, rawEntry] of Object.entries(block)) {
    const name = rawName
      .replace(/[^A-Za-z0-9_-]/g, '-')
      .replace(/_{2,}/g, '_')
      .replace(/_+$/, '')
      .slice(0, 30);
    if (!McpServerName.safeParse(name).success) {
      result.skipped.push({ name: rawName, reason: 'Its name cannot be made into a server name.' });
      continue;
    }
    const entry = asRecord(rawEntry);
    const env = stringRecord(entry.env);
    const headers = stringRecord(entry.headers);
    const secretEnv = Object.keys(env).filter((key) => isSecret(key, env[key] ?? ''));
    const secretHeaders = Object.keys(headers).filter((key) => isSecret(key, headers[key] ?? ''));
    const url =
      typeof entry.httpUrl === 'string' ? entry.httpUrl : typeof entry.url === 'string' ? entry.url : '';
    const timeout = typeof entry.timeout === 'number' ? Math.ceil(entry.timeout / 1_000) : undefined;
    const parsed = McpServerConfigInput.safeParse({
      transport: typeof entry.command === 'string' ? 'stdio' : 'http',
      command: typeof entry.command === 'string' ? entry.command : '',
      args: Array.isArray(entry.args) ? entry.args.filter((arg) => typeof arg === 'string') : [],
      cwd: typeof entry.cwd === 'string' ? entry.cwd : '',
      env: omit(env, secretEnv),
      url,
      headers: omit(headers, secretHeaders),
      secretEnv,
      secretHeaders,
      enabled: entry.disabled !== true,
      ...(timeout !== undefined && { callTimeoutSeconds: Math.min(55, Math.max(1, timeout)) }),
    });
    const secrets = McpSecretsInput.safeParse({
      env: pick(env, secretEnv),
      headers: pick(headers, secretHeaders),
    });
    if (!parsed.success || !secrets.success) {
      const issue = (parsed.error ?? secrets.error)?.issues[0];
      result.skipped.push({ name: rawName, reason: issue?.message ?? 'not a server entry' });
      continue;
    }
    result.servers.push({ name, config: parsed.data, secrets: secrets.data });
  }
  return result;
}

function stringRecord(value: unknown): Record<string, string> {
  return Object.fromEntries(
    Object.entries(asRecord(value)).filter(
      (entry): entry is [string, string] => typeof entry[1] === 'string',
    ),
  );
}

function omit(values: Record<string, string>, names: readonly string[]): Record<string, string> {
  return Object.fromEntries(Object.entries(values).filter(([name]) => !names.includes(name)));
}

function pick(values: Record<string, string>, names: readonly string[]): Record<string, string> {
  return Object.fromEntries(Object.entries(values).filter(([name]) => names.includes(name)));
}
