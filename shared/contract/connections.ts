import { z } from 'zod';

/** The services Deputy can be connected to. Secrets stay in the main process: only status crosses. */
export const ConnectionName = z.enum(['google', 'slack', 'gemini']);
export type ConnectionName = z.infer<typeof ConnectionName>;

export const ConnectionState = z.enum(['disconnected', 'connecting', 'connected', 'error']);
export type ConnectionState = z.infer<typeof ConnectionState>;

export const ConnectionStatus = z.object({
  name: ConnectionName,
  state: ConnectionState,
  /** The connected account (an email address, a Slack user and team), never a credential. */
  account: z.string().nullable(),
  scopes: z.array(z.string()),
  /** When the current access token expires, when the service says so. */
  expiresAt: z.string().nullable(),
  /** What went wrong last, in words a person can act on. */
  error: z.string().nullable(),
  /** While `connecting` through a browser: the page to open. */
  authUrl: z.string().nullable(),
  /** Whether what connecting needs is there (Google: an OAuth client id). */
  isConfigured: z.boolean(),
});
export type ConnectionStatus = z.infer<typeof ConnectionStatus>;

export const ConnectionsListInput = z.object({}).strict().default({});
export const ConnectionsListOutput = z.object({ connections: z.array(ConnectionStatus) });
export type ConnectionsListOutput = z.infer<typeof ConnectionsListOutput>;

const secret = (max: number) => z.string().trim().min(1).max(max);

export const ConnectionsConnectInput = z.discriminatedUnion('name', [
  z
    .object({
      name: z.literal('google'),
      /** The user's own OAuth client (Desktop app type); when absent, Settings or the environment decide. */
      clientId: z.string().trim().min(1).max(300).optional(),
      clientSecret: secret(300).optional(),
    })
    .strict(),
  z
    .object({
      name: z.literal('slack'),
      /** A pasted user token (xoxp-…), verified with auth.test before it is stored. Without it: OAuth v2. */
      token: secret(500).optional(),
      clientId: z.string().trim().min(1).max(300).optional(),
      clientSecret: secret(300).optional(),
    })
    .strict(),
  z.object({ name: z.literal('gemini'), apiKey: secret(500) }).strict(),
]);
export type ConnectionsConnectInput = z.infer<typeof ConnectionsConnectInput>;

export const ConnectionsConnectOutput = z.object({
  status: ConnectionStatus,
  /** For a browser sign-in: open this page; the status changes when the redirect arrives. */
  authUrl: z.string().nullable(),
  /** Something to tell the person about a connection that did go through (a key saved without being checked). */
  notice: z.string().optional(),
});
export type ConnectionsConnectOutput = z.infer<typeof ConnectionsConnectOutput>;

export const ConnectionsDisconnectInput = z.object({ name: ConnectionName }).strict();
export const ConnectionsDisconnectOutput = z.object({ status: ConnectionStatus });

export const ConnectionsChangedFilter = z.object({}).strict().default({});
export const ConnectionsChangedEvent = z.object({ connections: z.array(ConnectionStatus) });
export type ConnectionsChangedEvent = z.infer<typeof ConnectionsChangedEvent>;
