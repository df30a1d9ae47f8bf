/**
 * Splits markdown into its top-level blocks at blank lines outside fenced code, so a streaming answer parses
 * again only its last, growing block. Joined with blank lines the blocks give the text back.
 */
export function markdownBlocks(text: string): string[] {
  const blocks: string[] = [];
  let current: string[] = [];
  let fence: string | null = null;
  for (const line of text.split('\n')) {
    const opener = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (opener) {
      if (fence === null) fence = opener.charAt(0);
      else if (opener.startsWith(fence)) fence = null;
    }
    if (fence === null && line.trim() === '' && current.length > 0) {
      blocks.push(current.join('\n'));
      current = [];
    } else if (!(fence === null && line.trim() === '')) {
      current.push(line);
    }
  }
  if (current.length > 0) blocks.push(current.join('\n'));
  return blocks;
}
