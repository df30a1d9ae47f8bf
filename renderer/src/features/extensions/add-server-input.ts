import { McpServerConfig, McpServerName, type McpSecrets } from '../../../../shared/contract';
import { parseSecretLines } from './secret-lines';

/**
 * A command line as a person types it, split into the program and its arguments at spaces outside quotes:
 * `npx -y @modelcontextprotocol/server-filesystem "/Users/me/My Documents"` keeps the folder one argument, and
 * `''` is an empty one. Nothing else of a shell's is done (no variables, no ~, no globs, and a backslash is kept
 * as it is, for Windows paths): the program is started directly.
 */
export function splitCommandLine(text: string): string[] {
  const words: string[] = [];
  let word: string | null = null;
  let quote: string | null = null;
  for (const char of text) {
    if (quote !== null) {
      if (char === quote) quote = null;
      else word = (word ?? '') + char;
    } else if (char === '"' || char === "'") {
      quote = char;
      word ??= '';
    } else if (/\s/.test(char)) {
      if (word !== null) words.push(word);
      word = null;
    } else word = (word ?? '') + char;
  }
  if (word !== null) words.push(word);
  return words;
}

/**
 * A program and its arguments as a command line that splitCommandLine reads back the same: an argument that is
 * empty or holds a space or a quote is quoted. The server's card shows it so, and it can be copied into the add
 * form as it stands: `node server.js "/Users/me/My Documents"`, not `… /Users/me/My Documents`, two arguments.
 */
export function joinCommandLine(words: readonly string[]): string {
  return words.map(quotedWord).join(' ');
}

/**
 * One argument as splitCommandLine reads it back. One with both kinds of quote (`{"name":"O'Brien"}`, imported from
 * another app's settings) is written in pieces that read back as one word: each `"` in single quotes, the rest in
 * double ones. In either quotes alone it came back cut at its other quote, and a Save of the card's Edit, unchanged,
 * stored other arguments.
 */
function quotedWord(word: string): string {
  if (word !== '' && !/[\s"']/.test(word)) return word;
  if (!word.includes('"')) return `"${word}"`;
  if (!word.includes("'")) return `'${word}'`;
  return word
    .split('"')
    .map((part) => (part === '' ? '' : `"${part}"`))
    .join(`'"'`);
}

/** How a server is started (its command line, as joinCommandLine writes it) or reached (its address). */
export function targetLine(config: McpServerConfig): string {
  return config.transport === 'stdio' ? joinCommandLine([config.command, ...config.args]) : config.url;
}

type Target = { transport: 'stdio'; command: string; args: string[] } | { transport: 'http'; url: string };

/** A "command or URL" field: an http(s) URL is a server reached there; anything else, the command that starts one. */
function readTarget(text: string): Target {
  const target = text.trim();
  if (/^https?:\/\//i.test(target)) return { transport: 'http', url: target };
  const [command = '', ...args] = splitCommandLine(target);
  return { transport: 'stdio', command, args };
}

export type EditedTarget = { ok: true; changes: Target } | { ok: false; problem: string };

/**
 * A server's new command line or address, as its card's Edit takes it, or what is wrong with it. It stays a server
 * of the same kind: its secrets are environment values for a command and headers for an address, and would not
 * carry over.
 */
export function readEditedTarget(text: string, config: McpServerConfig): EditedTarget {
  const changes = readTarget(text);
  const isStdio = config.transport === 'stdio';
  if (changes.transport !== config.transport)
    return {
      ok: false,
      problem: isStdio
        ? 'This server is started by a command: give its command line. To use a server at an address, add it as a new server.'
        : 'This server is reached at an address: give its http:// or https:// URL. To use a server started by a command, add it as a new server.',
    };
  if (!McpServerConfig.safeParse({ ...config, ...changes }).success)
    return { ok: false, problem: isStdio ? 'Give a command.' : 'Give an http:// or https:// URL.' };
  return { ok: true, changes };
}

export type AddServerInput =
  { ok: true; name: string; config: McpServerConfig; secrets: McpSecrets } | { ok: false; problem: string };

/**
 * The add form's fields as a server to save, or what is wrong with them. A name already taken is refused: saving
 * under it would replace that server, and drop its secrets, without a word.
 */
export function readAddServerForm(
  fields: { name: string; target: string; secretLines: string },
  takenNames: readonly string[],
): AddServerInput {
  const target = readTarget(fields.target);
  const isUrl = target.transport === 'http';
  const secrets = parseSecretLines(fields.secretLines, isUrl ? 'headers' : 'env');
  const name = McpServerName.safeParse(fields.name);
  if (!name.success) return { ok: false, problem: 'The name: letters, digits, "-" and single "_".' };
  if (takenNames.includes(name.data))
    return {
      ok: false,
      problem: `There is already a server named ${name.data}. Choose another name, or remove that one first.`,
    };
  const config = McpServerConfig.safeParse({
    ...target,
    [isUrl ? 'secretHeaders' : 'secretEnv']: Object.keys(isUrl ? secrets.headers : secrets.env),
  });
  if (!config.success) return { ok: false, problem: 'Give a command or a URL.' };
  return { ok: true, name: name.data, config: config.data, secrets };
}
