import type {
  ConnectionStatus,
  ConnectionsConnectInput,
  ConnectionsConnectOutput,
} from '../../shared/contract';
import { DeputyError } from '../../shared/contract';
import type { Env } from '../host/settings';
import type { GeminiKeyCheck } from '../llm/gemini-models';
import type { Vault } from '../vault/vault';
import { emptyStatus, type Connector } from './connections-service';
import { cleanPaste, unsendableAt, unsendableWords } from './pasted-secret';

const KEY_REFUSED =
  'Gemini did not accept this key, so it was not saved. Check that you copied the whole key from Google AI Studio.';
const KEY_SUPERSEDED =
  'This key was not saved: another key was saved, or the key removed, while it was being checked.';
const KEY_UNCHECKED =
  'The key is saved, but Gemini could not be reached to check it just now. If it is wrong, your first message will say so.';

/**
 * The key out of what was pasted. A line copied from a .env file or a shell profile (`GEMINI_API_KEY="AIza…"`,
 * `export GEMINI_API_KEY=AIza…`) brings the variable's name and quotes along, which Gemini would refuse, and the
 * person would be told to check a key that was right.
 */
function keyFromPaste(pasted: string): string {
  const value = cleanPaste(pasted).replace(/^(?:export\s+)?GEMINI_API_KEY\s*=\s*/, '');
  const quoted = /^(["'])(.*)\1$/.exec(value);
  return (quoted?.[2] ?? value).trim();
}

/** The Gemini API key: pasted in Settings (kept in the vault) or GEMINI_API_KEY in the environment. */
export class GeminiConnector implements Connector<'gemini'> {
  readonly name = 'gemini' as const;

  /** Counts saves and removals begun, so a key whose check ends after a later one began is not saved over it. */
  private changes = 0;

  constructor(
    private readonly vault: Vault,
    private readonly env: Env,
    private readonly changed: () => void,
    /** Asks Gemini whether it takes a key; bounded in time, and never says the key back. */
    private readonly checkKey: (apiKey: string) => Promise<GeminiKeyCheck>,
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
      account: isStored ? 'the key you saved' : 'the key set before Deputy started (GEMINI_API_KEY)',
    };
  }

  /**
   * Saves a key Gemini takes. A key Gemini refuses is not saved (the first message would only fail with it);
   * one that could not be checked (offline, Gemini down) is saved, and the reply says it was not checked.
   */
  async connect(
    input: Extract<ConnectionsConnectInput, { name: 'gemini' }>,
  ): Promise<ConnectionsConnectOutput> {
    const reason = this.vault.unavailableReason();
    if (reason) throw new DeputyError('secrets_unavailable', `The Gemini key cannot be saved: ${reason}`);
    const apiKey = keyFromPaste(input.apiKey);
    const badAt = unsendableAt(apiKey);
    if (badAt !== null)
      throw new DeputyError('invalid_input', unsendableWords('Gemini key', badAt, 'Google AI Studio'));
    const turn = ++this.changes;
    const check = await this.checkKey(apiKey);
    if (check === 'rejected') throw new DeputyError('invalid_input', KEY_REFUSED);
    // Another key was saved, or the key removed, while this one was checked: the later request stands.
    if (turn !== this.changes) throw new DeputyError('conflict', KEY_SUPERSEDED);
    this.vault.set('gemini.apiKey', apiKey);
    this.changed();
    return { status: this.status(), authUrl: null, ...(check === 'unchecked' && { notice: KEY_UNCHECKED }) };
  }

  disconnect(): Promise<ConnectionStatus> {
    this.changes += 1;
    this.vault.delete('gemini.apiKey');
    this.changed();
    return Promise.resolve(this.status());
  }
}
