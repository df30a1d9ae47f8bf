/** A conversation's title matches when it holds every word of the query, in any order and case. */
export function matchesQuery(title: string, query: string): boolean {
  const words = query.toLocaleLowerCase().split(/\s+/).filter(Boolean);
  const lower = title.toLocaleLowerCase();
  return words.every((word) => lower.includes(word));
}
