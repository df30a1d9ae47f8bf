import { expect } from 'vitest';
import { DEFAULT_AUTONOMY, type SettingsPatch } from '../../../shared/contract';
import { startFakeGemini } from '../../fakes/gemini/server';
import type { FakeGemini } from '../../fakes/gemini/types';
import { startFakeSlack, type FakeSlack } from '../../fakes/slack/server';
import { apiOf, putSettings } from './api';
import { startHost, type RunningHost } from './host';

export interface SlackHost {
  gemini: FakeGemini;
  slack: FakeSlack;
  host: RunningHost;
  stop(): Promise<void>;
}

/**
 * A host connected to the Slack fake, which the person lets act on its own (every kind of action on `auto`):
 * neither an action nor its undo is held for approval. `settings` adds to that.
 */
export async function startSlackHost(settings: SettingsPatch = {}): Promise<SlackHost> {
  const gemini = await startFakeGemini();
  const slack = await startFakeSlack();
  const host = await startHost({ geminiUrl: gemini.url, geminiApiKey: 'fake-key', env: slack.env });
  const connected = await apiOf(host)('/api/connections/slack', {
    method: 'PUT',
    body: JSON.stringify({ token: slack.state.issueToken() }),
  });
  expect(connected.status).toBe(200);
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
    host,
    stop: async () => {
      await host.stop();
      await slack.close();
      await gemini.close();
    },
  };
}
