/**
 * How the words a person reads quote something (a task, an event, a setting, a server's name): in curly double
 * quotes, “Buy milk”. A quote inside them takes single ones, so that the marks still pair up: the approval for
 * “Mark ‘Buy milk’ as done”. What the model is told, and what is stored and read back, keeps its own quotes.
 */
export const quoted = (words: string): string => `“${words.replace(INNER, '‘$1’')}”`;

/** A quote of ours inside the words: curly double quotes around text with none of their own. */
const INNER = /“([^“”]*)”/g;
