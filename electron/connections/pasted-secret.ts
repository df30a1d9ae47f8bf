/** Characters nobody sees that a copy from a web page or a chat can bring along inside a key or a token. */
const INVISIBLE = /[\u00AD\u200B-\u200D\u2060\uFEFF]/g;

/** A pasted key or token without the invisible characters a copy brought along, and without space around it. */
export function cleanPaste(pasted: string): string {
  return pasted.replace(INVISIBLE, '').trim();
}

/**
 * Where, counting from 1, a secret has a character an HTTP header cannot carry (a space, a line break, a letter
 * outside A–Z), or null. Such a key or token could never be sent: fetch would fail before asking, and the person
 * would be told the service could not be reached.
 */
export function unsendableAt(secret: string): number | null {
  const index = secret.search(/[^\x21-\x7E]/);
  return index === -1 ? null : index + 1;
}

/** Why a pasted `what` ("Gemini key", "Slack token") was not saved, naming only where: the character is secret. */
export function unsendableWords(what: string, at: number, whereToCopy: string): string {
  return `The ${what.split(' ').at(-1)} was not saved: character ${at} of it cannot be part of a ${what} (a space, a line break or a letter outside A–Z). Copy it again from ${whereToCopy}.`;
}
