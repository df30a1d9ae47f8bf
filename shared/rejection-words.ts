import { quoted } from './quote-words';

/*
 * What Deputy writes when a call is turned down (by the person, or for them when its MCP server went, or as its
 * approval expired): for the model, as the call's result (its ledger row and its audit entry keep that as its
 * error), and the same words read back for the person, as the audit viewer shows them. Both here, so that what is
 * written is what is read. What is stored keeps its straight quotes (a run picked up after a restart reads it
 * back); the person reads them as every other quote they see, “…”.
 */

const REJECTED = 'The user rejected this action';
const DO_NOT_RETRY = 'Do not retry it unless they ask.';
/**
 * What a run picked up after a restart told the model of a call turned down meanwhile, before it said what the
 * live run says (`turnedDownOnResume`); still read back for the person.
 */
export const REJECTED_ON_RESUME = 'The user rejected this call.';

/** The person's words ending as a sentence: with their own full stop (or ? or !), else one added. */
export const asSentence = (note: string): string => (/[.!?…]["'”’)]*$/.test(note) ? note : `${note}.`);

/** What the model is told of a call the person turned down, with their reason when they gave one. */
export function rejectionForModel(note: string | null): string {
  // The person's note ends its sentence, so the model's instruction after it reads as one of its own.
  return `${REJECTED}${note ? `: ${asSentence(note)}` : '.'} ${DO_NOT_RETRY}`;
}

/**
 * Why a call whose MCP server went while it waited was not run (the model is told more after it), the server's
 * name given already quoted: in straight quotes as stored, in curly ones for the person.
 */
const goneWords = (named: string, what: string): string =>
  `The MCP server ${named} was ${what} in Settings while this waited for approval, so it was not run.`;

/** How a server's tools went away from Settings: it was removed, or turned off (its settings kept). */
export type ServerGone = 'removed' | 'turned_off';

/** A call turned down, as the model is told it: `message`, with `code` beside it. */
export interface TurnedDown {
  code: string;
  message: string;
}

/**
 * What an approval left waiting for a tool of `server` is turned down with: `note` for the person (the approval's
 * own, as stored), the rest for the model.
 */
export function refusalForGone(server: string, how: ServerGone): TurnedDown & { note: string } {
  const what = how === 'removed' ? 'removed' : 'turned off';
  const after =
    how === 'removed'
      ? 'Its tools are no longer offered; do not retry it unless the user adds the server again.'
      : 'Its tools are not offered until the user turns it on again.';
  return {
    code: how === 'removed' ? 'mcp_server_removed' : 'mcp_server_turned_off',
    note: goneNote(`"${server}"`, what),
    message: `${goneWords(`"${server}"`, what)} ${after}`,
  };
}
/** Why Deputy turned an approval down for the person, as its note: the server's name quoted as `goneWords` says. */
const goneNote = (named: string, what: string): string =>
  `Turned down by Deputy: the MCP server ${named} was ${what} in Settings.`;
const GONE_NOTE = /^Turned down by Deputy: the MCP server "(.*)" was (removed|turned off) in Settings\.$/s;

/** The note of a call turned down because its run ended (another call of its turn ended it, or the run stopped). */
export const RUN_ENDED_NOTE = 'the run ended';

/**
 * What a run says that ended because the person cancelled its plan, and what its waiting calls were turned down
 * with: the window reads it to say "Cancelled", as the plan's tree does.
 */
export const PLAN_CANCELLED_WORDS = 'Cancelled: you cancelled the plan.';
/** What a run whose plan was cancelled while it worked said before it said it as a paused one does. */
const PLAN_CANCELLED_BEFORE = 'Stopped: you cancelled the plan.';

/** Whether a cancelled run's words say the person cancelled its plan (in today's words or the older ones). */
export const isPlanCancelledWords = (message: string | null | undefined): boolean =>
  message === PLAN_CANCELLED_WORDS || message === PLAN_CANCELLED_BEFORE;

/**
 * An approval's note as its card shows it: why Deputy turned it down for the person, in a sentence, with a server's
 * name in the quotes the rest of the card uses; the person's own reason (`decidedBy` 'person') as they wrote it.
 */
export function decisionNoteForPerson(note: string, decidedBy?: 'person' | 'deputy'): string {
  if (decidedBy === 'person') return note;
  if (note === RUN_ENDED_NOTE) return 'Deputy turned it down: the run it belonged to ended first.';
  const gone = GONE_NOTE.exec(note);
  return gone ? goneNote(quoted(gone[1] ?? ''), gone[2] ?? '') : note;
}

/**
 * What a run picked up after a restart tells the model of a call turned down meanwhile: what the live run would
 * have told it, read from the approval's note (the person's reason, or why Deputy turned it down for them), so the
 * resumed run's next request is the one the run would have made had it not stopped. `isPersons`: the approval
 * says the person turned it down (approvals settled before Deputy kept who did are read by their note alone).
 */
export function turnedDownOnResume(note: string | null, isPersons = false): TurnedDown {
  // The person's own reason is never read as Deputy's, however it reads.
  const gone = note === null || isPersons ? null : GONE_NOTE.exec(note);
  if (gone) {
    const { code, message } = refusalForGone(gone[1] ?? '', gone[2] === 'removed' ? 'removed' : 'turned_off');
    return { code, message };
  }
  return { code: 'rejected_by_user', message: rejectionForModel(note) };
}
const SERVER_GONE =
  /^The MCP server "(.*)" was (removed|turned off) in Settings while this waited for approval, so it was not run\./s;

/**
 * What the model was told of a call turned down, in the person's words: a rejection as "You turned this down; it
 * was not done. Your reason: Not now.", a server gone without what the model is told to do about it. Null when
 * `message` is none of these (Deputy's words for the rest it turned down, a new message, a plan cancelled, are
 * already the person's). Rejections written before a reason ended with a full stop ("…: not now Do not retry…")
 * read the same.
 */
export function turnedDownWords(message: string): string | null {
  const gone = SERVER_GONE.exec(message);
  if (gone) return goneWords(quoted(gone[1] ?? ''), gone[2] ?? '');
  const head = `${REJECTED}: `;
  const tail = ` ${DO_NOT_RETRY}`;
  let reason: string | null;
  if (message === REJECTED_ON_RESUME || message === rejectionForModel(null)) reason = null;
  else if (message.startsWith(head) && message.endsWith(tail))
    reason = message.slice(head.length, -tail.length).trim() || null;
  else return null;
  return `You turned this down; it was not done.${reason ? ` Your reason: ${asSentence(reason)}` : ''}`;
}

/**
 * What a run that ended because an approval expired says (its summary and error, as the API answers it): `at` is
 * when it expired, as an ISO time.
 */
export const expiredRunWords = (title: string, at: string): string =>
  `The approval for "${title}" expired at ${at}, so Deputy did not do it. Ask again if you still want it.`;
const EXPIRED_RUN =
  /^The approval for "(.*)" expired at (\S+), so Deputy did not do it\. Ask again if you still want it\.$/s;

/**
 * The words of a run ended by an expired approval read back for the person: the time it expired as `timeWords`
 * says it (in their time zone, not the raw ISO time), the action's title in the quotes the person reads everywhere
 * (“…”, a quote inside it ‘…’). Null when `message` is other words.
 */
export function expiredRunForPerson(message: string, timeWords: (iso: string) => string): string | null {
  const found = EXPIRED_RUN.exec(message);
  if (!found) return null;
  const [, title = '', at = ''] = found;
  return `The approval for ${quoted(title)} expired at ${timeWords(at)}, so Deputy did not do it. Ask again if you still want it.`;
}
