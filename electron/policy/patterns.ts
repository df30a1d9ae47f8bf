/**
 * Glob matching for rule patterns: `*` matches any run of characters, everything else is literal and
 * case-insensitive. `*@mycompany.com` matches `ann@mycompany.com`, not `ann@mycompany.com.evil.io`.
 */
export function matchesPattern(value: string, pattern: string): boolean {
  const source = pattern
    .trim()
    .toLowerCase()
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${source}$`).test(value.trim().toLowerCase());
}

/** An allow-list entry is an address (`sam@x.io`) or a whole domain (`@x.io` or `*@x.io`). */
export function isOnAllowlist(address: string, allowlist: readonly string[]): boolean {
  const normalized = address.trim().toLowerCase();
  return allowlist.some((entry) => {
    const item = entry.trim().toLowerCase();
    if (item.startsWith('@')) return normalized.endsWith(item);
    return matchesPattern(normalized, item);
  });
}
