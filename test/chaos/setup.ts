import type { ChaosFakes } from './fakes';
import { chaosMarker, chaosPrompt } from './chaos-model';
import { createHostApi } from './host-api';
import { startHostProcess } from './host-process';

/** Settings under which most chaos calls run on their own; the shapes that ask still ask (low confidence). */
export const CHAOS_SETTINGS = {
  timezone: 'UTC',
  userEmail: 'me@example.com',
  trustLevel: 'autonomous',
  autonomy: { 'email.send': 'auto', 'calendar.create': 'auto', 'slack.send': 'auto' },
  requireApprovalForFirstContact: false,
  rateLimits: { actionsPerMinute: 10_000, externalCallsPerHour: 100_000, modelTokensPerHour: 100_000_000 },
  executionPolicy: 'batch',
  maxParallel: 4,
} as const;

export class ChaosSetupError extends Error {}

/**
 * The first life of the host, never killed: connect Google (browser sign-in through the fake) and Slack (a
 * pasted token) over the HTTP API, set the settings, then run chaos run 0 to the end as a calibration. Its
 * duration sizes the window the kills are drawn from; its effects prove the harness reaches all three fakes.
 */
export async function setUpHost(
  fakes: ChaosFakes,
  env: Record<string, string>,
  token: string,
): Promise<{ runMs: number }> {
  const host = await startHostProcess(env);
  try {
    const api = createHostApi(host.url, token);
    await api.putSettings(CHAOS_SETTINGS);
    await api.connectGoogle();
    await api.connectSlack(fakes.slack.state.issueToken());
    const startedAt = performance.now();
    const response = await api.runToEnd(chaosPrompt(0));
    const runMs = performance.now() - startedAt;
    const marker = chaosMarker(0);
    const effects = fakes.effects();
    const missing = (['mail', 'events', 'posts'] as const).filter(
      (kind) => !effects[kind].some((effect) => effect.marker === marker),
    );
    if (response.status !== 'completed' || missing.length > 0) {
      throw new ChaosSetupError(
        `the calibration run did not do its work (status ${response.status}, missing: ${missing.join(', ') || 'none'}): ${response.summary}`,
      );
    }
    return { runMs };
  } catch (error) {
    throw new ChaosSetupError(
      `setting up the host failed: ${(error as Error).message}\n--- host output ---\n${host.output()}`,
    );
  } finally {
    await host.stop();
  }
}
