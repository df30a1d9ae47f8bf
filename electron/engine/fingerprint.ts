import { hash } from 'node:crypto';

/** JSON with object keys sorted at every depth, so equal arguments always give equal text. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Binds an approval to one tool and its exact arguments. */
export function fingerprint(tool: string, args: Record<string, unknown>): string {
  return hash('sha256', `${tool}\n${canonicalJson(args)}`, 'hex');
}

/**
 * The key a side effect carries so it can be found again: the same run, call and arguments always give the
 * same key, and nothing about it reveals the arguments.
 */
export function idempotencyKey(runId: string, callId: string, argsFingerprint: string): string {
  return hash('sha256', `${runId}\n${callId}\n${argsFingerprint}`, 'hex').slice(0, 32);
}
