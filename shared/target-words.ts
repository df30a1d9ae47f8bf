/**
 * Whom or where an action reached, as its audit entry keeps it, in a person's words. The host names a Slack
 * channel or person it has no name for by its address (`slack:#general`, `slack:C0123ABCD`, `slack:@u0123abcd`,
 * lower-cased for matching); each reads as what it is in Slack, with nothing dropped: the channel's name or id,
 * the person's id (as Slack writes it, in capitals). Anything else (a task, an event, mail addresses, names) is
 * already words and stays as it is.
 */
export function targetWords(target: string): string {
  return target.replace(SLACK_ADDRESS, (_address, name: string) => {
    if (name.startsWith('#')) return `${name} in Slack`;
    if (name.startsWith('@')) return `Slack user ${name.slice(1).toUpperCase()}`;
    return `Slack channel ${name.toUpperCase()}`;
  });
}

/** `slack:` then a channel's name (`#general`), a person's id (`@u0123`) or a channel's id (`C0123`). */
const SLACK_ADDRESS = /\bslack:(#[\p{L}\p{N}_-]+|@[a-z0-9]+|[a-z0-9]+)/giu;
