import type { Env } from './settings';

/** The variables that point Deputy's clients at other servers (the local fakes, a proxy). */
export const ENDPOINT_OVERRIDES = [
  'DEPUTY_GEMINI_BASE_URL',
  'DEPUTY_GOOGLE_OAUTH_BASE',
  'DEPUTY_GOOGLE_API_ROOT',
  'DEPUTY_SLACK_API_URL',
  'DEPUTY_SLACK_OAUTH_BASE',
] as const;

/** The developer setting that lets a packaged app honour them anyway. */
export const ALLOW_OVERRIDES = 'DEPUTY_ALLOW_ENDPOINT_OVERRIDES';

/**
 * In a packaged app an endpoint override is honoured only when the developer setting says so: otherwise
 * anything that can set the app's environment could send the person's tokens to a server of its choosing.
 * An unpackaged run (development, the headless host) honours them as given. Either way, when overrides are
 * in force or were dropped, `notice` says which, so it never happens silently.
 */
export function applyEndpointPolicy(env: Env, isPackaged: boolean): { env: Env; notice: string | null } {
  const present = ENDPOINT_OVERRIDES.filter((name) => env[name]?.trim());
  if (present.length === 0) return { env, notice: null };
  if (!isPackaged || env[ALLOW_OVERRIDES] === '1') {
    return { env, notice: `Endpoint overrides in force: ${present.join(', ')}.` };
  }
  const kept = Object.fromEntries(
    Object.entries(env).filter(([name]) => !(ENDPOINT_OVERRIDES as readonly string[]).includes(name)),
  );
  return {
    env: kept,
    notice: `Ignored ${present.join(', ')}: a packaged Deputy talks only to Google and Slack unless ${ALLOW_OVERRIDES}=1 is set.`,
  };
}
