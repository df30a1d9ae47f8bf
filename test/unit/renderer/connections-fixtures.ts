import type { ConnectionStatus } from '../../../shared/contract';

export const sampleConnection = (overrides: Partial<ConnectionStatus> = {}): ConnectionStatus => ({
  name: 'google',
  state: 'disconnected',
  account: null,
  scopes: [],
  expiresAt: null,
  error: null,
  authUrl: null,
  isConfigured: true,
  ...overrides,
});
