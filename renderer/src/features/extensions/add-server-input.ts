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
  return words
    .map((word) => {
      if (word !== '' && !/[\s"']/.test(word)) return word;
      return word.includes('"') ? `'${word}'` : `"${word}"`;
    })
    .join(' ');
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
  const target = fields.target.trim();
  const isUrl = /^https?:\/\//i.test(target);
  const [command = '', ...args] = splitCommandLine(target);
  const secrets = parseSecretLines(fields.secretLines, isUrl ? 'headers' : 'env');
  const name = McpServerName.safeParse(fields.name);
  if (!name.success) return { ok: false, problem: 'The name: letters, digits, "-" and single "_".' };
  if (takenNames.includes(name.data))
    return {
      ok: false,
      problem: `There is already a server named ${name.data}. Choose another name, or remove that one first.`,
    };
  const config = McpServerConfig.safeParse({
    transport: isUrl ? 'http' : 'stdio',
    ...(isUrl ? { url: target } : { command, args }),
    [isUrl ? 'secretHeaders' : 'secretEnv']: Object.keys(isUrl ? secrets.headers : secrets.env),
  });
  if (!config.success) return { ok: false, problem: 'Give a command or a URL.' };
  return { ok: true, name: name.data, config: config.data, secrets };
}
