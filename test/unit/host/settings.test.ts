import { describe, expect, it } from 'vitest';
import { maxLoopStepsFromEnv, SettingsService } from '../../../electron/host/settings';
import { resolveDataDir } from '../../../electron/host/data-dir';
import { openDatabase } from '../../../electron/store/database';
import { SettingsRepo } from '../../../electron/store/settings-repo';
import { SettingsPatch } from '../../../shared/contract';

describe('settings', () => {
  it.each([
    [undefined, 8],
    ['', 8],
    ['abc', 8],
    ['3', 3],
    ['0', 1],
    ['-4', 1],
    ['99', 15],
  ])('AGENT_MAX_LOOP_STEPS=%s gives %i steps', (value, steps) => {
    expect(maxLoopStepsFromEnv({ AGENT_MAX_LOOP_STEPS: value })).toBe(steps);
  });

  it('layers stored choices over the environment and never exposes the key', () => {
    const service = new SettingsService(new SettingsRepo(openDatabase(':memory:')), {
      GEMINI_API_KEY: 'secret-key',
      DEPUTY_MODEL: 'gemini-x',
      TZ: 'Asia/Tokyo',
    });
    expect(service.get()).toMatchObject({
      model: 'gemini-x',
      timezone: 'Asia/Tokyo',
      userName: '',
      maxLoopSteps: 8,
      isGeminiConfigured: true,
    });
    const updated = service.set({ model: 'gemini-y', maxLoopSteps: 3 });
    expect(updated).toMatchObject({ model: 'gemini-y', maxLoopSteps: 3 });
    expect(JSON.stringify(updated)).not.toContain('secret-key');
  });

  it('asks whether a key is there on every get, and never for the choices a run reads each step', () => {
    let asked = 0;
    let hasKey = false;
    const service = new SettingsService(new SettingsRepo(openDatabase(':memory:')), {}, () => {
      asked += 1;
      return hasKey;
    });
    expect(service.get().isGeminiConfigured).toBe(false);
    const before = asked;
    for (let step = 0; step < 5; step += 1)
      expect(service.choices().approvalExpiryMinutes).toBeGreaterThan(0);
    expect(asked).toBe(before);
    hasKey = true;
    expect(service.get().isGeminiConfigured).toBe(true);
    expect(asked).toBe(before + 1);
    // A choice saved is what the next step reads.
    service.set({ approvalExpiryMinutes: 7 });
    expect(service.choices().approvalExpiryMinutes).toBe(7);
  });

  it('validates a settings patch', () => {
    expect(SettingsPatch.safeParse({ timezone: 'Not/AZone' }).success).toBe(false);
    expect(SettingsPatch.safeParse({ maxLoopSteps: 16 }).success).toBe(false);
    expect(SettingsPatch.safeParse({ apiKey: 'x' }).success).toBe(false);
    expect(SettingsPatch.safeParse({ timezone: 'America/New_York' }).success).toBe(true);
  });

  it('takes a Gemini model id, and refuses what could only fail every message or reach another address', () => {
    for (const model of [
      'gemini-2.5-flash',
      'models/gemini-2.5-pro',
      'tunedModels/my-model.v2_1',
      ' gemini-2.0-flash ',
    ])
      expect(SettingsPatch.safeParse({ model }).success).toBe(true);
    for (const model of [
      '',
      'gemini 2.5',
      '../../files/abc',
      'gemini-2.5-flash:countTokens',
      'flash?key=1',
      'models/',
      'é',
    ])
      expect(SettingsPatch.safeParse({ model }).error?.issues[0]?.message).toBe(
        'a Gemini model id, such as gemini-2.5-flash',
      );
  });

  it('finds the data folder from DEPUTY_DATA_DIR, XDG or the OS convention', () => {
    expect(resolveDataDir({ DEPUTY_DATA_DIR: '/d' }, 'linux', '/home/u')).toBe('/d');
    expect(resolveDataDir({ XDG_DATA_HOME: '/x' }, 'linux', '/home/u')).toBe('/x/deputy');
    expect(resolveDataDir({}, 'linux', '/home/u')).toBe('/home/u/.local/share/deputy');
    expect(resolveDataDir({}, 'darwin', '/Users/u')).toBe('/Users/u/Library/Application Support/Deputy');
  });
});
