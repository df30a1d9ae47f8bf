import type { Store } from '../../store/store';
import { ModelsDesk } from '../models-desk';
import type { SettingsService } from '../settings';
import { UsageDesk } from '../usage-desk';
import type { HandlersFor } from './handlers';

export interface SettingsChannelsDeps {
  store: Store;
  settings: SettingsService;
  now: () => Date;
  /** The models the Gemini key can use; without a desk, no list is known and any model name is taken. */
  models?: ModelsDesk;
  logError: (message: string, error: unknown) => void;
  /** Runs waiting for a free slot go on if the change made room (a higher cap on runs at once). */
  admitWaiting: () => void;
  /** The person turned reading recent mail for context on or off. */
  recentMailChanged: () => void;
}

/** The Settings screen's domain: the choices themselves, the model picker, and usage per day at their prices. */
export function settingsChannels(
  deps: SettingsChannelsDeps,
): HandlersFor<'settings.get' | 'settings.set' | 'models.list' | 'usage.daily'> {
  const { settings } = deps;
  const models =
    deps.models ??
    new ModelsDesk({
      fetch: () => null,
      keyId: () => null,
      now: () => deps.now().getTime(),
      logError: deps.logError,
    });
  const usage = new UsageDesk({
    store: deps.store,
    now: deps.now,
    timezone: () => settings.get().timezone,
    prices: () => settings.get().modelPrices,
  });
  return {
    'settings.get': () => settings.get(),
    'settings.set': async (input) => {
      if (input.model !== undefined && input.model !== settings.get().model) await models.check(input.model);
      const changed = settings.set(input);
      deps.admitWaiting();
      if (input.embedRecentMail !== undefined) deps.recentMailChanged();
      return changed;
    },
    'models.list': (input) => models.list(input.refresh),
    'usage.daily': (input) => usage.daily(input.days),
  };
}
