import type { WebClient } from '@slack/web-api';
import type { OAuth2Client } from 'google-auth-library';
import { ToolError, type Integration } from '../tools/tool';

/** What Gmail and Calendar tools need: an authorised client (refreshing itself) and where the API lives. */
export interface GoogleAccess {
  /** The signed-in client; throws the `not_connected` ToolError when Google is not connected. */
  authClient(): Promise<OAuth2Client>;
  /** DEPUTY_GOOGLE_API_ROOT (e.g. a local fake), or undefined for Google's own endpoints. */
  readonly apiRoot: string | undefined;
}

/** What Slack tools need: a client carrying the user's token; throws `not_connected` when there is none. */
export interface SlackAccess {
  client(): Promise<WebClient>;
}

const SETTINGS_PLACE: Record<Integration, string> = {
  google: 'Connect Google in Settings → Connections, then ask again.',
  slack: 'Connect Slack in Settings → Connections, then ask again.',
};

/** The safe, actionable answer a tool gives when its account is missing or its sign-in has lapsed. */
export function notConnected(integration: Integration, detail?: string): ToolError {
  const name = integration === 'google' ? 'Google' : 'Slack';
  const why = detail ?? `${name} is not connected.`;
  return new ToolError('not_connected', `${why} ${SETTINGS_PLACE[integration]}`);
}
