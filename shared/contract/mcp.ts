import { z } from 'zod';
import { quoted } from '../quote-words';
import { AutonomyLevel } from './policy';

/**
 * A server's name is the first half of its tools' names (`server__tool`), so it may not hold `__`, and it keeps to
 * the letters Gemini accepts in a function name.
 */
export const McpServerName = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9](?:[A-Za-z0-9-]|_(?!_)){0,29}$/, 'letters, digits, "-" and single "_", up to 30')
  .refine((name) => !name.endsWith('_'), 'may not end with "_"');

const EnvName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,99}$/, 'an environment variable name');
const HeaderName = z.string().regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}$/, 'an HTTP header name');
const PlainValue = z.string().max(4_000);

/**
 * What an HTTP header can carry: fetch refuses a line break, or a character past Latin-1 (an emoji), before it
 * sends anything, and the server's card would only say it could not be reached. A process cannot be given a NUL
 * character (in its command, arguments, folder or environment) at all.
 */
const HEADER_VALUE = /^[\t\x20-\x7E\x80-\xFF]*$/;
const hasNul = (value: string): boolean => value.includes('\0');

/** Adds an issue, in words, for each header value that cannot be sent and each process value holding a NUL. */
function refuseUnusable(
  values: {
    headers?: Record<string, string>;
    env?: Record<string, string>;
    args?: string[];
    command?: string;
    cwd?: string;
  },
  context: z.RefinementCtx,
): void {
  const refuse = (path: (string | number)[], message: string) =>
    context.addIssue({ code: 'custom', path, message });
  for (const [name, value] of Object.entries(values.headers ?? {}))
    if (!HEADER_VALUE.test(value))
      refuse(
        ['headers', name],
        `the header ${quoted(name)} cannot hold a line break, or a character such as an emoji`,
      );
  for (const [name, value] of Object.entries(values.env ?? {}))
    if (hasNul(value)) refuse(['env', name], `the variable ${quoted(name)} cannot hold a NUL character`);
  values.args?.forEach(
    (arg, index) =>
      hasNul(arg) && refuse(['args', index], `argument ${index + 1} cannot hold a NUL character`),
  );
  if (values.command && hasNul(values.command))
    refuse(['command'], 'the command cannot hold a NUL character');
  if (values.cwd && hasNul(values.cwd)) refuse(['cwd'], 'the folder cannot hold a NUL character');
}

/**
 * One MCP server as the person configured it. Secret environment values and headers are not here: only their
 * names are (`secretEnv`, `secretHeaders`); their values live in the vault.
 */
export const McpServerConfig = z
  .object({
    transport: z.enum(['stdio', 'http']),
    command: z.string().trim().max(1_000).default(''),
    args: z.array(z.string().max(4_000)).max(100).default([]),
    cwd: z.string().max(1_000).default(''),
    env: z.record(EnvName, PlainValue).default({}),
    url: z.string().trim().max(2_000).default(''),
    headers: z.record(HeaderName, PlainValue).default({}),
    secretEnv: z.array(EnvName).max(50).default([]),
    secretHeaders: z.array(HeaderName).max(50).default([]),
    enabled: z.boolean().default(true),
    /** `startup`: started when Deputy starts; `first_use`: when one of its tools is first called. */
    start: z.enum(['startup', 'first_use']).default('startup'),
    // Below the registry's 60 s limit: the server's own limit answers first, as an error that is never retried
    // (an MCP server cannot recognise a repeated call, so a side effect must not be sent twice).
    callTimeoutSeconds: z.number().int().min(1).max(55).default(30),
    /** The person's autonomy for every tool of this server; null: each side effect asks (`confirm`). */
    autonomy: AutonomyLevel.nullable().default(null),
    /** Per tool (its name on the server), over the server's autonomy. */
    toolAutonomy: z.record(z.string().max(100), AutonomyLevel).default({}),
  })
  .strict()
  .superRefine((config, context) => {
    if (config.transport === 'stdio' && config.command === '')
      context.addIssue({ code: 'custom', path: ['command'], message: 'a stdio server needs a command' });
    if (config.transport === 'http' && !/^https?:\/\//i.test(config.url))
      context.addIssue({ code: 'custom', path: ['url'], message: 'an http server needs an http(s) URL' });
  });
export type McpServerConfig = z.infer<typeof McpServerConfig>;

/**
 * A server's settings as a person gives them (Settings, the API, an import): also what could never be sent or
 * started. Settings already stored are read with `McpServerConfig` alone, so none of them is dropped.
 */
export const McpServerConfigInput = McpServerConfig.superRefine(refuseUnusable);

/** Secret values sent once, to the vault; they are never sent back. */
export const McpSecrets = z
  .object({
    env: z.record(EnvName, z.string().max(4_000)).default({}),
    headers: z.record(HeaderName, z.string().max(4_000)).default({}),
  })
  .strict();
export type McpSecrets = z.infer<typeof McpSecrets>;
/** Secrets as a person gives them: also none that could never be sent (the vault's are read with `McpSecrets`). */
export const McpSecretsInput = McpSecrets.superRefine(refuseUnusable);

/**
 * `restarting`: it stopped or did not start, and is tried again after a delay. `failed`: it did not start (or stopped
 * right after it started) MCP_START_ATTEMPTS times in a row, and Deputy no longer tries it on its own (Restart, a
 * change to its settings or Deputy's next start tries it again).
 */
export const McpServerState = z.enum(['stopped', 'starting', 'running', 'restarting', 'failed', 'disabled']);
export type McpServerState = z.infer<typeof McpServerState>;

/**
 * How many starts in a row, with none that worked between them, a server may fail before it is left `failed`: a
 * command that is not there, or a server that exits at once, fails the same way every time, and retrying it for
 * ever only fills its log. A start works once the server has stayed up 10 s (STAYED_UP_MS in
 * electron/mcp/start-tally.ts): one that answers Deputy's first requests and then stops within that time failed too.
 * A server that ran longer and then died is restarted as before; only its failed starts count, and an address that
 * could not be reached at all, or that answered it cannot answer for now (HTTP 429, 502, 503, 504), is not one (the
 * network may come back, the server may be back in a moment): it is retried as before.
 */
export const MCP_START_ATTEMPTS = 3;

export const McpToolView = z.object({
  /** The name the model and the policy see: `server__tool`. */
  name: z.string(),
  /** Its name on the server, the key of `toolAutonomy`. */
  serverTool: z.string(),
  /** The person's setting for this tool alone; null: the server's. */
  autonomy: AutonomyLevel.nullable(),
  description: z.string(),
  risk: z.string(),
  hasSideEffects: z.boolean(),
});

/**
 * Which settings of a server a view shows (a hash of them): `mcp.put` with it saves only over those same settings,
 * so a copy read before a change made elsewhere cannot write over that change.
 */
export const McpRevision = z.string().regex(/^[0-9a-f]{16}$/, 'the revision of a server as it was read');

export const McpServerView = z.object({
  name: z.string(),
  config: McpServerConfig,
  revision: McpRevision,
  state: McpServerState,
  /** Why it is not running, or, while it runs, that its last call went unanswered, in words a person can read; else null. */
  error: z.string().nullable(),
  restarts: z.number().int(),
  /** The process of a running stdio server. */
  pid: z.number().int().nullable(),
  tools: z.array(McpToolView),
  /** Secret names with a masked value: the UI shows these and never the value. */
  maskedSecrets: z.array(z.object({ kind: z.enum(['env', 'header']), name: z.string(), masked: z.string() })),
  /** Which of its tools were left out at its last listing, and why, one line each (absent: none). */
  leftOut: z.array(z.string()).optional(),
  /**
   * Its last start was refused (HTTP 401 or 403) and none has run since: the secret Deputy sends it is wrong or
   * missing (absent: not so). Its card then points at Replace secret.
   */
  isRefused: z.literal(true).optional(),
});
export type McpServerView = z.infer<typeof McpServerView>;

export const McpListInput = z.object({}).strict().default({});
export const McpListOutput = z.object({ servers: z.array(McpServerView) });

export const McpPutInput = z
  .object({
    name: McpServerName,
    config: McpServerConfigInput,
    secrets: McpSecretsInput.optional(),
    /**
     * The revision the change was made on (a card's copy): if the server changed since, or was removed, nothing is
     * saved and the answer is `changed_since` (HTTP 409). Absent: the server's settings are replaced whatever they are.
     */
    revision: McpRevision.optional(),
    /**
     * A new server (the add form): a server of that name already there is not replaced, and the
     * answer is `conflict` (HTTP 409).
     */
    isNew: z.literal(true).optional(),
  })
  .strict();
export const McpServerOutput = z.object({ server: McpServerView });

export const McpNameInput = z.object({ name: McpServerName }).strict();
export const McpDeleteOutput = z.object({ deleted: z.string() });

export const McpLogOutput = z.object({ lines: z.array(z.string()) });

/** A Claude Desktop or Gemini CLI config: a path Deputy reads, or the file's text (from a file picker). */
export const McpImportInput = z
  .object({
    path: z.string().trim().min(1).max(1_000).optional(),
    text: z.string().max(1_000_000).optional(),
  })
  .strict()
  .refine((input) => (input.path === undefined) !== (input.text === undefined), 'give a path or a text');
export const McpImportOutput = z.object({
  imported: z.array(z.string()),
  /** How many values went to the vault rather than into settings. */
  secretsStored: z.number().int(),
  skipped: z.array(z.object({ name: z.string(), reason: z.string() })),
});
