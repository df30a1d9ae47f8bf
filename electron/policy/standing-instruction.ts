/**
 * Whether a memory reads as a standing instruction to add recipients, links or actions ("always bcc x@y",
 * "forward all mail to…", "include this link") rather than a fact about the person. Memories come back in
 * every later run, so an instruction saved as one would steer every later run: such a memory is refused, and
 * one that slipped in earlier is left out of [ABOUT THE USER].
 *
 * Returns why it reads as an instruction, or null for a fact.
 */
export function standingInstruction(text: string): string | null {
  const lower = text.toLowerCase().replace(/\s+/g, ' ').trim();
  const hasAddress = /[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+\.[\p{L}]/u.test(lower);
  const hasLink = /\b(?:https?:\/\/|www\.)|\b[a-z0-9-]+\.(?:com|net|org|io|co|xyz|ru|app|link|ly)\b/.test(
    lower,
  );
  const standing =
    /\b(always|never|from now on|every time|everytime|each time|whenever|in (the )?future|by default|automatically|for all|all (future )?(mail|emails?|messages?|replies|events|meetings))\b/.test(
      lower,
    );
  const acting =
    // Effects that reach people or carry links; "never schedule before 10" or "always reply in French" are
    // preferences about how, and stay facts.
    /\b(send|forward|bcc|cc|copy|add|include|invite|post|share|attach|append|click|visit|open|delete|transfer|pay)\b/.test(
      lower,
    );
  if (/\b(bcc|cc|forward|redirect)\b/.test(lower) && hasAddress)
    return 'it tells Deputy to copy or forward mail to an address';
  if (standing && acting) return 'it is a standing instruction to act, not a fact about you';
  // "Include this link…", "Add x@y to…": an order, not a fact, when it starts with the verb.
  if (
    /^(please )?(send|forward|bcc|cc|include|add|invite|post|share|email|visit|click|open|delete|remove|create|attach|append|use)\b/.test(
      lower,
    )
  )
    return 'it is an instruction, not a fact about you';
  if (
    (hasAddress || hasLink) &&
    /\b(must|should|need to|needs to|has to|have to|make sure|remember to|don't forget to|do not forget to)\b/.test(
      lower,
    )
  )
    return 'it tells Deputy to use an address or a link in what it does';
  return null;
}
