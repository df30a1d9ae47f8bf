/**
 * Whether a value nests objects or arrays more than `limit` levels deep. The walk is iterative and stops at the
 * first value past the limit, so the check cannot run out of stack on the very input it guards against.
 */
export function isNestedDeeperThan(value: unknown, limit: number): boolean {
  const ahead: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  for (let next = ahead.pop(); next !== undefined; next = ahead.pop()) {
    if (next.value === null || typeof next.value !== 'object') continue;
    if (next.depth >= limit) return true;
    for (const child of Object.values(next.value)) ahead.push({ value: child, depth: next.depth + 1 });
  }
  return false;
}
