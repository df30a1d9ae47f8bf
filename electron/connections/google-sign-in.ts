import { z } from 'zod';
import { redactError } from '../vault/redactor';
import { describeOAuthFailure } from './google-oauth';
import { LoopbackError } from './loopback';
import { duration } from '../../shared/duration-words';

/** How long one request to Google may take: userinfo, revoke, and the token exchange unless told otherwise. */
export const REQUEST_TIMEOUT_MS = 30_000;

/** A failure of the sign-in whose message is already fit to show. */
export class SignInError extends Error {}

const UserInfo = z.object({ email: z.string().min(1) });

/** The account's address from the userinfo endpoint (scopes openid email). */
export async function fetchAccount(
  userinfoUrl: string,
  accessToken: string | null | undefined,
): Promise<string> {
  if (!accessToken) throw new SignInError('Google returned no access token. Connect again.');
  const response = await fetch(userinfoUrl, {
    headers: { authorization: `Bearer ${accessToken}` },
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  const parsed = UserInfo.safeParse(response.ok ? await response.json() : null);
  if (!parsed.success)
    throw new SignInError(
      `Signed in, but Google did not say which account it is (HTTP ${response.status}). Connect again.`,
    );
  return parsed.data.email;
}

/** Why the sign-in failed, in words fit to show; a failure nobody foresaw is logged (redacted) as well. */
export function describeSignInFailure(
  error: unknown,
  timeoutMs: number,
  logError: ((message: string, error: unknown) => void) | undefined,
): string {
  if (error instanceof SignInError) return error.message;
  if (error instanceof LoopbackError) {
    const retry = 'Connect again to retry.';
    switch (error.code) {
      case 'access_denied':
        return `Google sign-in was cancelled: access was denied in the browser. ${retry}`;
      case 'timeout':
        return `Google sign-in timed out: the browser did not come back within ${duration(timeoutMs)}. ${retry}`;
      default:
        return `Google sign-in failed: ${error.message} ${retry}`;
    }
  }
  logError?.('Google token exchange failed', redactError(error));
  return `Google refused to finish the sign-in (${describeOAuthFailure(error)}). Connect again to retry.`;
}

/** Rejects with `onTimeout()` unless `promise` settles within `ms`; a late result is ignored. */
export async function withTimeout<T>(promise: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onTimeout()), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
