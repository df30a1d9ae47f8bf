export interface NamedAddress {
  name: string;
  address: string;
}

const ADDRESS = /^[^\s@<>,;"]+@[^\s@<>,;"]+\.[^\s@<>,;"]+$/;

/** The people of a To/Cc/From header: `"Chen, Sarah" <sarah@x.com>, bob@y.org` → two entries. */
export function parseAddressList(header: string): NamedAddress[] {
  const entries: string[] = [];
  let current = '';
  let isQuoted = false;
  let depth = 0;
  for (const char of header) {
    if (char === '"') isQuoted = !isQuoted;
    if (!isQuoted && char === '<') depth += 1;
    if (!isQuoted && char === '>') depth = Math.max(0, depth - 1);
    if (char === ',' && !isQuoted && depth === 0) {
      entries.push(current);
      current = '';
    } else current += char;
  }
  entries.push(current);
  return entries.flatMap((entry) => {
    const angle = /^(.*)<([^>]+)>\s*$/.exec(entry.trim());
    const address = (angle?.[2] ?? entry).trim().toLowerCase();
    if (!ADDRESS.test(address)) return [];
    const name = (angle?.[1] ?? '').trim().replace(/^"|"$/g, '').trim();
    return [{ name: name || nameFromAddress(address), address }];
  });
}

/** "sarah.chen@x.com" → "sarah chen": a name to match when the header gives none. */
function nameFromAddress(address: string): string {
  return (address.split('@')[0] ?? '').replace(/[._+-]+/g, ' ').trim();
}
