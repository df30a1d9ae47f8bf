/**
 * The tab of a tab list that a key moves to, as the ARIA tabs pattern says: the arrows go round, Home and End go
 * to the ends; null for any other key.
 */
export function tabForKey<T>(tabs: readonly T[], current: T, key: string): T | null {
  const index = tabs.indexOf(current);
  const at = (position: number) => tabs[(position + tabs.length) % tabs.length] ?? null;
  if (key === 'ArrowRight') return at(index + 1);
  if (key === 'ArrowLeft') return at(index - 1);
  if (key === 'Home') return at(0);
  if (key === 'End') return at(tabs.length - 1);
  return null;
}
