import { GaxiosError } from 'gaxios';
import type { OAuth2Client } from 'google-auth-library';
import type { GoogleAccess } from '../connections/access';
import { googleToolError } from './google-errors';

/** What every Google API client is built with. */
export interface GoogleClientOptions {
  auth: OAuth2Client;
  rootUrl?: string;
  /** Retries belong to the engine's retry layer, which knows about idempotency and the run's budget. */
  retry: false;
}

/**
 * Builds a Google API client over the user's access, runs one piece of work with it, and turns whatever a
 * Google call throws into the ToolError the model sees, naming `what` was being done.
 */
export async function callGoogle<Api, T>(
  access: GoogleAccess,
  build: (options: GoogleClientOptions) => Api,
  what: string,
  now: () => Date,
  run: (api: Api) => Promise<T>,
): Promise<T> {
  try {
    const api = build({
      auth: await access.authClient(),
      ...(access.apiRoot && { rootUrl: access.apiRoot }),
      retry: false,
    });
    return await run(api);
  } catch (error) {
    throw googleToolError(error, what, now());
  }
}

/** Whether Google answered that the thing is not there (404) or gone for good (410): deleted, by anyone. */
export function isGoneOnGoogle(error: unknown): boolean {
  const status = error instanceof GaxiosError ? (error.status ?? error.response?.status) : null;
  return status === 404 || status === 410;
}

/**
 * Runs an undo's delete. A thing already gone counts as deleted, and says so (`wasAlreadyGone`): someone else
 * deleted it, or an undo cut short by a crash did, and what the undo wanted holds either way.
 */
export async function deleteOnGoogle(remove: () => Promise<unknown>): Promise<{ wasAlreadyGone?: true }> {
  try {
    await remove();
    return {};
  } catch (error) {
    if (isGoneOnGoogle(error)) return { wasAlreadyGone: true };
    throw error;
  }
}
