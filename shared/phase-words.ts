/**
 * An agent's steps (its SOP's phases) as a person reads them. A phase's name is the file's key, kept as it is in
 * checkpoints and the policy; these are only its words. The built-in agents' phases have words of their own
 * ("awaiting_user" → "Wait for your approval"); any other reads as its name, spaced out, in sentence case.
 */
const PHASE_WORDS: Readonly<Record<string, string>> = {
  explore: 'Gather',
  analyze: 'Analyze',
  report: 'Report',
  synthesize: 'Sum up',
  find_people: 'Find the people',
  availability: 'Check when they are free',
  propose: 'Propose times',
  awaiting_user: 'Wait for your approval',
};

export function phaseWords(name: string): string {
  if (Object.hasOwn(PHASE_WORDS, name)) return PHASE_WORDS[name] ?? name;
  const spaced = name.replace(/[_-]+/g, ' ').trim();
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}
