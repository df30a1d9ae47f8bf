import type { McpServerConfig } from '../../shared/contract';
import { quoted } from '../../shared/quote-words';
import { asRecord } from '../store/json';
import { redactedJson } from '../vault/redactor';

/**
 * Why the servers' settings may not be saved as given, or null. Settings are stored with secrets taken out
 * (`SettingsRepo.set` stores the redacted JSON of every server at once), so a plain value the redactor takes
 * would be saved without it and its server would stop working after a restart: a key in an argument, a
 * password in a URL, an environment value or header whose name says it is a secret but that is not marked
 * secret, or the value of a secret the vault knows. This asks the redactor what it will take out of exactly
 * that JSON, where a name sits next to its value (`"X-Api-Key":"…"`), rather than guessing from each value alone.
 * Every server is checked, since saving one re-saves the others; `changed`, the one being saved, comes first.
 */
export function secretInPlainSight(configs: Record<string, McpServerConfig>, changed: string): string | null {
  const plain = JSON.stringify(configs);
  const stored = redactedJson(configs);
  if (stored === plain) return null;
  const kept = asRecord(JSON.parse(stored));
  const others = Object.keys(configs).filter((name) => name !== changed);
  for (const name of [changed, ...others]) {
    const lost = firstLoss(configs[name], kept[name]);
    if (!lost) continue;
    const what = `${fieldWords(lost)} what looks like a password or key`;
    return name === changed
      ? `The server's ${what}. Give it as a secret environment value or header instead: Deputy keeps those ` +
          'in the vault, and settings are saved with secrets taken out.'
      : `Saving would take a value out of the MCP server ${quoted(name)}, saved earlier: its ${what}. Make it ` +
          'a secret environment value or header of that server first: settings are saved with secrets taken out.';
  }
  return "The servers' settings hold what looks like a password or key, and settings are saved with secrets taken out.";
}

/** The path (keys and indexes) to the first string of `plain` that `kept` does not hold as it was; null: none. */
function firstLoss(plain: unknown, kept: unknown): string[] | null {
  if (typeof plain === 'string') return plain === kept ? null : [];
  if (plain === null || typeof plain !== 'object') return null;
  if (kept === null || typeof kept !== 'object') return [];
  for (const [key, value] of Object.entries(plain)) {
    // A name taken out (an environment variable named like a key) leaves its value under another name.
    if (!Object.hasOwn(kept, key)) return [key];
    const lost = firstLoss(value, (kept as Record<string, unknown>)[key]);
    if (lost) return [key, ...lost];
  }
  return null;
}

/** A field of a server's settings, as the person knows it, with "holds" (or "hold"). */
function fieldWords([field, name]: string[]): string {
  switch (field) {
    case undefined:
      return 'name holds';
    case 'command':
      return 'command holds';
    case 'args':
      return 'arguments hold';
    case 'cwd':
      return 'working folder holds';
    case 'url':
      return 'URL holds';
    case 'env':
      return name === undefined ? 'environment values hold' : `environment value ${name} holds`;
    case 'headers':
      return name === undefined ? 'headers hold' : `header ${name} holds`;
    default:
      return `setting ${field} holds`;
  }
}
