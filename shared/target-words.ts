/**
 * Whom or where an action reached, as its audit entry keeps it, in a person's words. The host names a Slack
 * channel or person it has no name for by its address (`slack:#general`, `slack:C0123ABCD`, `slack:@u0123abcd`,
 * lower-cased for matching); each reads as what it is in Slack, with nothing dropped: the channel's name or id,
 * the person's id (as Slack writes it, in capitals). Anything else (a task, an event, mail addresses, names) is
 * already words and stays as it is.
 */
export function targetWords(target: string): string {
  return target.replace(SLACK_ADDRESS, (_address, name: string) => {
    if (name.startsWith('#')) return slackPlaceWords(name);
    if (name.startsWith('@')) return `Slack user ${name.slice(1).toUpperCase()}`;
    return slackIdWords(name.toUpperCase());
  });
}

/** One party an effect reaches, as a person reads it: by name where known, else what its address says. */
export const recipientWords = (recipient: { address: string; name?: string | undefined }): string =>
  recipient.name ?? targetWords(recipient.address);

/**
 * A Slack channel as a call names it (`#general`, `general`, or Slack's id), in words: `#general`, or, given by
 * id, what it is with its id, which is all Deputy knows of it ("Slack channel C0123ABCD", "Slack DM D0123ABCD").
 */
export function slackChannelWords(channel: string): string {
  const trimmed = channel.trim();
  return SLACK_CHANNEL_ID.test(trimmed)
    ? slackIdWords(trimmed)
    : `#${trimmed.replace(/^#/, '').toLowerCase()}`;
}

/**
 * Where a post goes, from a channel's words: a channel's name with where it is ("#general in Slack"); words that
 * already say Slack ("Slack channel C0123ABCD", "Slack DM with carol.c") as they are.
 */
export function slackPlaceWords(channelWords: string): string {
  return channelWords.startsWith('#') ? `${channelWords} in Slack` : channelWords;
}

/** A direct message, by the person at its other end as Slack names them: "Slack DM with carol.c". */
export const slackDmWords = (person: string): string => `Slack DM with ${person}`;

/** Slack's ids of a channel (C…), a private channel (G…) and a direct message (D…): capitals, never a name. */
export const SLACK_CHANNEL_ID = /^[CGD][A-Z0-9]{6,}$/;

/** A conversation known by its Slack id (in capitals): a direct message, or a channel. */
const slackIdWords = (id: string): string => (id.startsWith('D') ? `Slack DM ${id}` : `Slack channel ${id}`);

/** `slack:` then a channel's name (`#general`), a person's id (`@u0123`) or a channel's id (`C0123`). */
const SLACK_ADDRESS = /\bslack:(#[\p{L}\p{N}_-]+|@[a-z0-9]+|[a-z0-9]+)/giu;
