import type {
  ConnectionStatus,
  ConnectionsConnectInput,
  ConnectionsConnectOutput,
} from '../../shared/contract';
import { DeputyError } from '../../shared/contract';
import type { Env } from '../host/settings';
import type { Vault } from '../vault/vault';
import { emptyStatus, type Connector } from './connections-service';

/** The Gemini API key: pasted in Settings (kept in the vault) or GEMINI_API_KEY in the environment. */
export class GeminiConnector implements Connector<'gemini'> {
  readonly name = 'gemini' as const;

  constructor(
    private readonly vault: Vault,
    private readonly env: Env,
    private readonly changed: () => void,
  ) {}

  /** The key to use: the one stored in Settings wins over the environment's. */
  apiKey(): string | null {
    return this.vault.get('gemini.apiKey') ?? (this.env.GEMINI_API_KEY?.trim() || null);
  }

  isUsable(): boolean {
    return this.apiKey() !== null;
  }

  status(): ConnectionStatus {
    const isStored = this.vault.has('gemini.apiKey');
    const fromEnv = Boolean(this.env.GEMINI_API_KEY?.trim());
    if (!isStored && !fromEnv)
      return { ...emptyStatus('gemini', true), error: this.vault.unavailableReason() };
    return {
      ...emptyStatus('gemini', true),
      state: 'connected',
      account: isStored ? 'API key saved in Settings' : 'API key from GEMINI_API_KEY',
    };
  }

  connect(input: Extract<ConnectionsConnectInput, { name: 'gemini' }>): Promise<ConnectionsConnectOutput> {
    const reason = this.vault.unavailableReason();
    if (reason) throw new DeputyError('secrets_unavailable', `The Gemini key cannot be saved: ${reason}`);
    this.vault.set('gemini.apiKey', input.apiKey);
    this.changed();
    return Promise.resolve({ status: this.status(), authUrl: null });
  }

  disconnect(): Promise<ConnectionStatus> {
    this.vault.delete('gemini.apiKey');
    this.changed();
    return Promise.resolve(this.status());
  }
}
