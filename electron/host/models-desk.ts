import { DeputyError, type ModelInfo, type ModelsListOutput } from '../../shared/contract';
import { NO_GEMINI_KEY_MESSAGE as NO_GEMINI_KEY } from '../../shared/no-gemini-key';
import { ModelError } from '../llm/model-client';
import { quoted } from '../../shared/quote-words';

/** Said instead of "could not be reached" when Gemini answered, and refused the key. */
const KEY_REFUSED =
  'Gemini didn’t accept your API key, so the models it can use are not known. Check the key in Settings → Connections.';
const isKeyRefusal = (error: unknown): boolean =>
  error instanceof ModelError && error.kind === 'key_rejected';

/** How long a fetched list is used before Gemini is asked again. */
const FRESH_MS = 10 * 60_000;
/** After Gemini could not be reached, how long before it is tried again (unless the person asks to refresh). */
const RETRY_MS = 60_000;

export interface ModelsDeskDeps {
  /** The key's chat models from Gemini, or null when no key is set. */
  fetch: (signal: AbortSignal) => Promise<ModelInfo[]> | null;
  /** Which key the list belongs to (a new key lists again); null when none is set. */
  keyId: () => string | null;
  now: () => number;
  logError: (message: string, error: unknown) => void;
}

/**
 * The models the person can pick in Settings: Gemini's list for their key, kept for a while. A model the list
 * does not have is refused when the list is known; with no list (no key, Gemini unreachable) it is accepted.
 */
export class ModelsDesk {
  private cached: { key: string; models: ModelInfo[]; at: number } | null = null;
  private failedAt: { key: string; at: number; isKeyRefused: boolean } | null = null;

  constructor(private readonly deps: ModelsDeskDeps) {}

  async list(refresh = false): Promise<ModelsListOutput> {
    const key = this.deps.keyId();
    if (key === null) return { models: [], note: NO_GEMINI_KEY };
    const cached = this.cached?.key === key ? this.cached : null;
    if (cached && !refresh && this.deps.now() - cached.at < FRESH_MS)
      return { models: cached.models, note: null };
    const note = 'Gemini could not be reached to list the models your key can use.';
    const unreachable = (isKeyRefused: boolean): ModelsListOutput =>
      isKeyRefused
        ? { models: [], note: KEY_REFUSED }
        : cached
          ? { models: cached.models, note: `${note} This is the list from earlier.` }
          : { models: [], note: `${note} You can keep the model you have.` };
    // Offline, every save would otherwise wait for the network again: a failure is remembered for a minute.
    if (!refresh && this.failedAt?.key === key && this.deps.now() - this.failedAt.at < RETRY_MS)
      return unreachable(this.failedAt.isKeyRefused);
    try {
      const models = await this.deps.fetch(AbortSignal.timeout(15_000));
      if (models === null) return { models: [], note: NO_GEMINI_KEY };
      this.cached = { key, models, at: this.deps.now() };
      this.failedAt = null;
      return { models, note: null };
    } catch (error) {
      this.deps.logError('listing the Gemini models failed', error);
      const isKeyRefused = isKeyRefusal(error);
      this.failedAt = { key, at: this.deps.now(), isKeyRefused };
      return unreachable(isKeyRefused);
    }
  }

  /** Refuses a model the key's list does not have; says nothing when the list is not known. */
  async check(model: string): Promise<void> {
    const { models, note } = await this.list();
    if (note !== null && models.length === 0) return;
    if (models.some((known) => known.id === model)) return;
    throw new DeputyError(
      'invalid_input',
      `${quoted(model)} is not one of the models your Gemini key can use. Pick one from the list in Settings → General.`,
    );
  }
}
