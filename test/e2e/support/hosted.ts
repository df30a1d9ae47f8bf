import { afterAll, beforeAll } from 'vitest';
import type { SettingsPatch } from '../../../shared/contract';
import { startFakeGemini } from '../../fakes/gemini/server';
import type { FakeGemini } from '../../fakes/gemini/types';
import { putSettings } from './api';
import { startHost, type RunningHost } from './host';

/** A headless host on a fake Gemini for the file's tests, with `settings` applied, stopped after them. */
export function useHostedGemini(settings: SettingsPatch = {}): {
  gemini: () => FakeGemini;
  host: () => RunningHost;
} {
  let gemini: FakeGemini | undefined;
  let host: RunningHost | undefined;
  beforeAll(async () => {
    gemini = await startFakeGemini();
    host = await startHost({ geminiUrl: gemini.url, geminiApiKey: 'fake-key' });
    await putSettings(host, settings);
  });
  afterAll(async () => {
    await host?.stop();
    await gemini?.close();
  });
  const started = <T>(value: T | undefined): T => {
    if (!value) throw new Error('useHostedGemini(): not started yet');
    return value;
  };
  return { gemini: () => started(gemini), host: () => started(host) };
}
