import { McpSecrets, type McpServerView } from '../../../../shared/contract';

/** `NAME=value` lines (a header may be written `Name: value`), as the secrets of one kind. */
export function parseSecretLines(text: string, kind: 'env' | 'headers'): McpSecrets {
  const values: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const match = /^\s*([^=:\s]+)\s*[=:]\s*(.*?)\s*$/.exec(line);
    if (match?.[1] && match[2]) values[match[1]] = match[2];
  }
  return kind === 'env' ? { env: values, headers: {} } : { env: {}, headers: values };
}

/** One secret as the card's Replace secret form takes it: its kind and name, and the value typed ('' keeps it). */
export interface SecretField {
  kind: 'env' | 'header';
  name: string;
  value: string;
}

export type ReplacedSecrets = { ok: true; secrets: McpSecrets } | { ok: false; problem: string };

/**
 * The new values of a server's secrets, as its card's form gives them, or what is wrong with them: a field left
 * empty keeps its value, and at least one must be given. A name the server did not have must be one its kind takes.
 */
export function readSecretFields(fields: readonly SecretField[]): ReplacedSecrets {
  const given = fields.map((field) => ({ ...field, name: field.name.trim(), value: field.value.trim() }));
  const pick = (kind: SecretField['kind']) =>
    Object.fromEntries(
      given.filter((field) => field.kind === kind && field.value).map((f) => [f.name, f.value]),
    );
  const secrets = McpSecrets.safeParse({ env: pick('env'), headers: pick('header') });
  if (!secrets.success) {
    const isHeader = secrets.error.issues.some((issue) => issue.path[0] === 'headers');
    return {
      ok: false,
      problem: isHeader
        ? 'The name: a header’s name, in letters, digits and "-" (such as Authorization).'
        : 'The name: an environment variable’s name, in letters, digits and "_" (such as API_TOKEN).',
    };
  }
  if (Object.keys(secrets.data.env).length + Object.keys(secrets.data.headers).length === 0)
    return { ok: false, problem: 'Type the new value, or press Cancel to keep the one in the vault.' };
  return { ok: true, secrets: secrets.data };
}

/**
 * What the Replace secret form says of the values typed in its `count` fields: where they go, and when the server
 * uses them. Saved, a server that is on starts again with them; one turned off is not started until it is turned on.
 */
export function secretsNote(server: McpServerView, count: number): string {
  const isNew = server.maskedSecrets.length === 0;
  const them = count === 1 ? 'it' : 'them';
  const kept = `Kept in the vault and never shown again${isNew ? '' : '; a field left empty keeps its value'}.`;
  const when = server.config.enabled
    ? `Saving starts “${server.name}” again with ${them}.`
    : `“${server.name}” is turned off: it starts with the new ${count === 1 ? 'value' : 'values'} when you turn it on.`;
  return `${kept} ${when}`;
}
