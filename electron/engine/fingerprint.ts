import { hash } from 'node:crypto';
import { canonicalJson } from '../../shared/canonical-json';

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
