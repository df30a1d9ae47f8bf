import { expect, vi } from 'vitest';
import { DEFAULT_AUTONOMY, type SettingsPatch } from '../../../shared/contract';
import { startFakeGemini } from '../../fakes/gemini/server';
import type { FakeGemini } from '../../fakes/gemini/types';
import { startFakeGoogle, type FakeGoogle } from '../../fakes/google/server';
import { startFakeSlack, type FakeSlack } from '../../fakes/slack/server';
import { googleEnv } from '../../support/connect';
import { apiOf, putSettings } from './api';
import { startHost, type RunningHost } from './host';

export interface SlackHost {
  gemini: FakeGemini;
  slack: FakeSlack;
  /** The Google fake, when the host was asked to connect Google too. */
  google: FakeGoogle | null;
  host: RunningHost;
  stop(): Promise<void>;
}

/**
 * A host connected to the Slack fake (and to the Google fake with `withGoogle`), which the person lets act on
 * its own (every kind of action on `auto`): neither an action nor its undo is held for approval. `settings`
 * adds to that.
 */
export async function startSlackHost(
  settings: SettingsPatch = {},
  { withGoogle = false }: { withGoogle?: boolean } = {},
): Promise<SlackHost> {
  const gemini = await startFakeGemini();
  const slack = await startFakeSlack();
  const google = withGoogle ? await startFakeGoogle() : null;
  const host = await startHost({
    geminiUrl: gemini.url,
    geminiApiKey: 'fake-key',
    env: { ...slack.env, ...(google && googleEnv(google)) },
  });
  const api = apiOf(host);
  const connected = await api('/api/connections/slack', {
    method: 'PUT',
    body: JSON.stringify({ token: slack.state.issueToken() }),
  });
  expect(connected.status).toBe(200);
  if (google) await connectGoogle(host);
  const auto = Object.fromEntries(Object.keys(DEFAULT_AUTONOMY).map((kind) => [kind, 'auto'] as const));
  await putSettings(host, {
    trustLevel: 'autonomous',
    autonomy: auto,
    requireApprovalForFirstContact: false,
    ...settings,
  });
  return {
    gemini,
    slack,
    google,
    host,
    stop: async () => {
      await host.stop();
      await slack.close();
      await google?.close();
      await gemini.close();
    },
  };
}

/** Signs in to the Google fake as a person's browser would: the host's sign-in page, then its redirect back. */
async function connectGoogle(host: RunningHost): Promise<void> {
  const api = apiOf(host);
  const started = await api('/api/connections/google/start', { method: 'POST', body: '{}' });
  expect(started.status).toBe(200);
  const { authUrl } = (await started.json()) as { authUrl?: string };
  expect((await fetch(authUrl ?? '', { redirect: 'follow' })).ok).toBe(true);
  await vi.waitFor(
    async () => {
      const { connections } = (await (await api('/api/connections')).json()) as {
        connections: { name: string; state: string }[];
      };
      expect(connections.find((one) => one.name === 'google')?.state).toBe('connected');
    },
    { timeout: 5_000, interval: 50 },
  );
}
