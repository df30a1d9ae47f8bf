import type {
  ConnectionName,
  ConnectionState,
  ConnectionStatus,
  ConnectionsConnectInput,
} from '../../../../shared/contract';

/**
 * The order the cards appear in, whatever order the host lists them. Gemini first: Deputy cannot answer
 * without its key, while Google and Slack are optional, so the one step everyone needs is never below the fold.
 */
export const CONNECTION_ORDER: readonly ConnectionName[] = ['gemini', 'google', 'slack'];

export const CONNECTION_TITLES: Record<ConnectionName, string> = {
  google: 'Google',
  slack: 'Slack',
  gemini: 'Gemini',
};

export const CONNECTION_PURPOSES: Record<ConnectionName, string> = {
  google: 'Gmail and Google Calendar: read and draft mail, send when you allow it, manage events.',
  slack: 'Read channels and messages you can see.',
  gemini: 'The model that plans and writes Deputy’s answers.',
};

export const STATE_LABELS: Record<ConnectionState, string> = {
  disconnected: 'Not connected',
  connecting: 'Waiting for sign-in',
  connected: 'Connected',
  error: 'Needs attention',
};

/**
 * A sign-in that failed with nothing connected before it (no account): the card says so, not "Needs attention"
 * over a connection the person never had, and offers Connect, not Reconnect or Disconnect.
 */
const hasNeverConnected = (status: ConnectionStatus): boolean =>
  status.state === 'error' && status.account === null;

/** Where the connection stands, in the card's words. */
export const stateLabel = (status: ConnectionStatus): string =>
  hasNeverConnected(status) ? STATE_LABELS.disconnected : STATE_LABELS[status.state];

/** The words before the account: Gemini connects with a key, not as someone, so it reads "Using the key you saved". */
export function accountLead(status: ConnectionStatus): string {
  if (status.name === 'gemini') return 'Using ';
  return status.state === 'connected' ? 'Connected as ' : 'Last connected as ';
}

export function orderConnections(connections: readonly ConnectionStatus[]): ConnectionStatus[] {
  const rank = (name: ConnectionName) => CONNECTION_ORDER.indexOf(name);
  return [...connections].sort((a, b) => rank(a.name) - rank(b.name));
}

/** Reconnect signs in again over a connection that exists or failed; Start again replaces a pending sign-in. */
export function connectLabel(status: ConnectionStatus): 'Connect' | 'Reconnect' | 'Start again' {
  if (status.state === 'connecting') return 'Start again';
  const hasConnection =
    status.state === 'connected' || (status.state === 'error' && !hasNeverConnected(status));
  return hasConnection ? 'Reconnect' : 'Connect';
}

/** Disconnecting means something only when there is a connection, a failed one, or a sign-in to cancel. */
export const canDisconnect = (status: ConnectionStatus): boolean =>
  status.state !== 'disconnected' && !hasNeverConnected(status);

/**
 * A scope as a person reads it: Google's are URLs (`…/auth/gmail.modify` → `gmail.modify`), Slack's
 * are already short (`channels:read`).
 */
export function scopeLabel(scope: string): string {
  const match = /^https:\/\/www\.googleapis\.com\/auth\/(.+)$/.exec(scope);
  return match?.[1] ?? scope;
}

/** "Access expires …" in the user's own clock, or that it has expired; null when the service gave no time. */
export function describeExpiry(expiresAt: string | null, now: number): string | null {
  if (expiresAt === null) return null;
  const at = Date.parse(expiresAt);
  if (Number.isNaN(at)) return null;
  const when = new Date(at).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
  return at <= now ? `Access expired ${when}` : `Access expires ${when}`;
}

/** The OAuth client fields the user may fill in: empty fields are left out so the host decides. */
export interface ClientFields {
  clientId: string;
  clientSecret: string;
}

export const EMPTY_CLIENT: ClientFields = { clientId: '', clientSecret: '' };

function clientPart(fields: ClientFields): { clientId?: string; clientSecret?: string } {
  const clientId = fields.clientId.trim();
  const clientSecret = fields.clientSecret.trim();
  return { ...(clientId && { clientId }), ...(clientSecret && { clientSecret }) };
}

/**
 * The client fields are shown only while the host has no client. Once it has one they are hidden but may
 * still hold what was typed before, and sending a lone client ID would replace a working client.
 */
const shownClient = (status: ConnectionStatus, fields: ClientFields) =>
  status.isConfigured ? {} : clientPart(fields);

export const googleConnectInput = (
  status: ConnectionStatus,
  fields: ClientFields,
): ConnectionsConnectInput => ({
  name: 'google',
  ...shownClient(status, fields),
});

/** With a pasted token the OAuth client is irrelevant: the token alone is verified and stored. */
export function slackConnectInput(
  status: ConnectionStatus,
  token: string,
  fields: ClientFields,
): ConnectionsConnectInput {
  const pasted = token.trim();
  return pasted ? { name: 'slack', token: pasted } : { name: 'slack', ...shownClient(status, fields) };
}
