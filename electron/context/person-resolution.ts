import { addressName, type Contact, type ContactsIndex } from './contacts-index';
import { foldName, otherNameForms } from './nicknames';

export interface PersonCandidate {
  name: string;
  address: string;
  /** The same person's Slack user (`slack:@U…`) when their mail contact and Slack profile share a full name. */
  slack?: string;
  /** Whether the person ever wrote to or met them: the same fact the first-contact guard reads. */
  isKnown: boolean;
  evidence: string[];
}

export type PersonResolution =
  | { status: 'resolved'; name: string; person: PersonCandidate }
  | {
      status: 'ambiguous';
      name: string;
      candidates: PersonCandidate[];
      question: string;
      /** No candidate has the very name: each only begins so (Anabel for Ana) or is another form of it (Robert for Bob). */
      isGuess: boolean;
    }
  | { status: 'unknown'; name: string; question: string };

const CANDIDATES = 5;
/** How many contacts a lookup reads: more than are offered, so the ones the person dealt with can be picked. */
const LOOKED_UP = CANDIDATES * 4;

const candidate = (contact: Contact): PersonCandidate => ({
  name: contact.name || contact.address,
  address: contact.address,
  isKnown: contact.dealtCount > 0,
  evidence: contact.evidence,
});

/**
 * Who "Sarah" is. The people the person dealt with are the plausible ones; someone who only appeared (sent a
 * mail, was on an invitation) is offered only when no one they dealt with has the name. Two plausible people
 * are never chosen between silently: the answer is a question that names both. Nor is a longer name the index
 * matched by its beginning ("Ana" finds Anabel Ruiz), or another form of the name ("Bob" finds Robert Hale,
 * nicknames.ts): with no one called Ana, the answer asks "Do you mean Anabel Ruiz?", a question with one
 * candidate.
 */
export function resolvePerson(index: ContactsIndex, name: string): PersonResolution {
  const words = foldedWords(name);
  const isExact = (contact: Contact): boolean => hasEveryWord(contact, words);
  const isDealt = (contact: Contact): boolean => contact.dealtCount > 0;
  const found = withOtherForms(
    index,
    name,
    index.findByName(name, LOOKED_UP),
    (contact) => isDealt(contact) && isExact(contact),
  );
  const dealtExact = found.filter((contact) => isDealt(contact) && isExact(contact));
  // No one the person dealt with has the very name: those they dealt with whose name begins so or is another
  // form of it, and those of the very name who only appeared, are all candidates; failing both, whoever the
  // lookup found.
  const closest = found.filter((contact) => isDealt(contact) || isExact(contact));
  const pool = dealtExact.length > 0 ? dealtExact : closest.length > 0 ? closest : found;
  const exactAddresses = new Set(pool.filter(isExact).map((contact) => contact.address));
  const plausible = samePersonOnSlack(pool.slice(0, CANDIDATES).map(candidate));
  const [first, second] = plausible;
  if (!first) {
    return {
      status: 'unknown',
      name,
      question: `Who is ${name}? I found no one by that name in your mail, calendar or Slack. What is their email address?`,
    };
  }
  const isGuess = !plausible.some((person) => exactAddresses.has(person.address));
  if (!second && !isGuess) return { status: 'resolved', name, person: first };
  const named = plausible.map((person) => `${person.name} (${person.address})`);
  const list = second ? `${named.slice(0, -1).join(', ')} or ${named.at(-1) ?? ''}` : (named[0] ?? '');
  return {
    status: 'ambiguous',
    name,
    candidates: plausible,
    question: isGuess
      ? `I found no one called ${name}. Do you mean ${list}?`
      : `Which ${name} do you mean: ${list}?`,
    isGuess,
  };
}

/**
 * What the name's lookup found, and, when it found no one the person dealt with of the very name (`settles`),
 * those whom another form of the name finds: "Bob" → Robert Hale. That second lookup is a separate one, so
 * the Roberts cannot crowd the Bobs out of the first.
 */
function withOtherForms(
  index: ContactsIndex,
  name: string,
  found: Contact[],
  settles: (contact: Contact) => boolean,
): Contact[] {
  const hasOtherForms = foldedWords(name).some((word) => otherNameForms(word).length > 0);
  if (!hasOtherForms || found.some(settles)) return found;
  const addresses = new Set(found.map((contact) => contact.address));
  const others = index.findByName(name, LOOKED_UP, otherNameForms);
  return [...found, ...others.filter((contact) => !addresses.has(contact.address))];
}

/**
 * The question to ask before a mail or an invitation to someone resolved to a Slack user alone (no mail contact
 * of the same full name): the index knows no mail address for them. Null when it knows one, or did not resolve.
 */
export function noMailAddressQuestion(resolution: PersonResolution): string | null {
  if (resolution.status !== 'resolved' || !isSlack(resolution.person.address)) return null;
  return `I know ${resolution.person.name} only from Slack, so I have no email address for them. What is ${resolution.name}’s email address?`;
}

/** Lower-case words without accents: "José Núñez" → jose, nunez. */
const foldedWords = (text: string): string[] => foldName(text).match(/[\p{L}\p{N}]+/gu) ?? [];

/** Every word is a whole word of the contact's name, or of their mail address before the @. */
function hasEveryWord(contact: Contact, words: readonly string[]): boolean {
  const own = new Set([...foldedWords(contact.name), ...foldedWords(addressName(contact.address))]);
  return words.length > 0 && words.every((word) => own.has(word));
}

const isSlack = (address: string): boolean => address.startsWith('slack:');
const fullName = (person: PersonCandidate): string => person.name.trim().toLowerCase();

/**
 * A mail contact and a Slack profile with the same full name are one person seen in two places, when the name
 * fits only one of each: "Carol Chen <carol@x.io>" and the workspace's Carol Chen are not two Carols to choose
 * between. Two mail contacts of one name stay two people, and so do two Slack profiles.
 */
function samePersonOnSlack(candidates: PersonCandidate[]): PersonCandidate[] {
  const merged: PersonCandidate[] = [];
  for (const person of candidates) {
    if (!isSlack(person.address) || !person.name.includes(' ')) {
      merged.push(person);
      continue;
    }
    const mail = candidates.filter(
      (other) => !isSlack(other.address) && fullName(other) === fullName(person),
    );
    const slack = candidates.filter(
      (other) => isSlack(other.address) && fullName(other) === fullName(person),
    );
    const [only] = mail;
    if (mail.length !== 1 || slack.length !== 1 || !only) {
      merged.push(person);
      continue;
    }
    const index = merged.indexOf(only);
    const joined: PersonCandidate = {
      ...only,
      slack: person.address,
      evidence: [...only.evidence, ...person.evidence],
    };
    if (index >= 0) merged[index] = joined;
    else merged.push(joined);
  }
  // A mail contact met after its Slack profile was merged already: keep the joined one only.
  return merged.filter(
    (person, index) =>
      person.slack !== undefined ||
      !merged.some((other, at) => at !== index && other.address === person.address),
  );
}
