/** Text for a notification: one line, at most `maxChars`, cut at a word with an ellipsis when longer. */
export function oneLine(text: string, maxChars: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= maxChars ? line : `${line.slice(0, maxChars - 1).trimEnd()}…`;
}
