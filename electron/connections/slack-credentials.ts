/** What the vault keeps as 'slack.token'. */
export interface SlackSignIn {
  token: string;
  userId: string;
  user: string;
  teamId: string;
  team: string;
  scopes: string[];
}

/** The user's own Slack app, kept as 'slack.client' when given in Settings. */
export interface SlackApp {
  clientId: string;
  clientSecret: string;
}

/** The stored sign-in as read back from the vault; null when what is stored is not one. */
export function parseSignIn(value: unknown): SlackSignIn | null {
  if (typeof value !== 'object' || value === null) return null;
  const record = value as Record<string, unknown>;
  const text = (key: string) => (typeof record[key] === 'string' ? record[key] : null);
  const token = text('token');
  const userId = text('userId');
  const teamId = text('teamId');
  if (!token || !userId || !teamId) return null;
  const scopes = Array.isArray(record.scopes)
    ? record.scopes.filter((scope) => typeof scope === 'string')
    : [];
  return { token, userId, user: text('user') ?? userId, teamId, team: text('team') ?? teamId, scopes };
}

/** The stored app as read back from the vault; null when what is stored is not one. */
export function parseApp(value: unknown): SlackApp | null {
  if (typeof value !== 'object' || value === null) return null;
  const { clientId, clientSecret } = value as Record<string, unknown>;
  return typeof clientId === 'string' && typeof clientSecret === 'string' ? { clientId, clientSecret } : null;
}
