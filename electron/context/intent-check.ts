import type { IntentAnalysis } from '../../shared/contract/intent';
import type { ContactsIndex } from './contacts-index';
import { personNames } from './intent-analysis';
import type { TurnReach } from '../engine/intent-statement';
import { noMailAddressQuestion, resolvePerson } from './person-resolution';

const ADDRESS = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * The engine's check of the people an intent names, against the contacts index. Two plausible people by one
 * name are never chosen between silently: the run asks which. A name the index does not know is asked about
 * only when the turn would act towards people (a mail, an invitation, a Slack message): remembering "Anna likes
 * tulips" needs no address, writing to Anna does. An address given as such needs no resolving. A mail or an
 * invitation to someone known only from Slack asks for their mail address: the index has none to give.
 */
export function unresolvedPersonQuestion(
  contacts: ContactsIndex,
  analysis: IntentAnalysis,
  { reachesPeople, reachesByMail, mailRecipients }: TurnReach,
): string | null {
  // A later turn's mail (see TurnReach): only to addresses the person dealt with, it writes to no one unknown.
  if (mailRecipients?.every((address) => contacts.isDealtWith(address))) return null;
  for (const name of personNames(analysis)) {
    if (ADDRESS.test(name) || /<[^>]+@[^>]+>/.test(name)) continue;
    const resolution = resolvePerson(contacts, name);
    // No one has the very name, only a longer one that begins so ("Ana" → Anabel) or another form of it ("Bob" →
    // Robert): a guess, asked about as an unknown name is.
    const isGuess = resolution.status === 'ambiguous' && resolution.isGuess;
    if (!mailRecipients && resolution.status === 'ambiguous' && (!isGuess || reachesPeople))
      return resolution.question;
    if (!mailRecipients && resolution.status === 'unknown' && reachesPeople) return resolution.question;
    const noAddress = reachesByMail ? noMailAddressQuestion(resolution) : null;
    if (noAddress) return noAddress;
  }
  return null;
}
