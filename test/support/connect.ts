import { vi, expect } from 'vitest';
import type { Host } from '../../electron/host/create-host';
import type { ConnectionName, ConnectionStatus } from '../../shared/contract';
import { FAKE_OAUTH_CLIENT } from '../fakes/google/oauth';

/** The environment that points a host's Google sign-in and clients at a fake Google, with the fake's OAuth client. */
export function googleEnv(fake: { env: Record<string, string> }): Record<string, string> {
  return {
    ...fake.env,
    DEPUTY_GOOGLE_CLIENT_ID: FAKE_OAUTH_CLIENT.clientId,
    DEPUTY_GOOGLE_CLIENT_SECRET: FAKE_OAUTH_CLIENT.clientSecret,
  };
}

export async function waitForConnection(
  host: Host,
  name: ConnectionName,
  state: ConnectionStatus['state'],
): Promise<ConnectionStatus> {
  let status: ConnectionStatus | undefined;
  await vi.waitFor(
    async () => {
      const { connections } = await host.invoke('connections.list', {});
      status = connections.find((connection) => connection.name === name);
      expect(status?.state).toBe(state);
    },
    { timeout: 5_000, interval: 10 },
  );
  return status as ConnectionStatus;
}

/**
 * Connects Google the way a person does: the host hands out the sign-in page, "the browser" opens it (the
 * fake consents and redirects to the host's loopback listener), and the status turns connected.
 */
export async function connectGoogle(host: Host): Promise<ConnectionStatus> {
  const { authUrl } = await host.invoke('connections.connect', { name: 'google' });
  if (!authUrl) throw new Error('connections.connect gave no authUrl for Google');
  const page = await fetch(authUrl);
  if (!page.ok) throw new Error(`the sign-in redirect failed: HTTP ${page.status}`);
  return waitForConnection(host, 'google', 'connected');
}
