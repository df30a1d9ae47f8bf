import { describe, expect, it } from 'vitest';
import {
  DEFAULT_MODEL,
  MODEL_PROFILES,
  contextWindowOf,
  profileOf,
  readModelConfig,
} from '../../../electron/llm/model-config';

describe('readModelConfig', () => {
  it('reads the key, the model and the base URL', () => {
    const config = readModelConfig({
      GEMINI_API_KEY: ' key-1 ',
      DEPUTY_MODEL: 'gemini-2.5-pro',
      DEPUTY_GEMINI_BASE_URL: 'http://127.0.0.1:8787',
    });
    expect(config).toEqual({ apiKey: 'key-1', model: 'gemini-2.5-pro', baseUrl: 'http://127.0.0.1:8787' });
  });

  it('treats missing and blank values as unset', () => {
    expect(readModelConfig({ GEMINI_API_KEY: '  ', DEPUTY_MODEL: '' })).toEqual({
      apiKey: null,
      model: DEFAULT_MODEL,
      baseUrl: null,
    });
    expect(DEFAULT_MODEL).toBe('gemini-2.5-flash');
  });

  it('refuses a DEPUTY_MODEL that is not a model id, in words naming it, rather than every run failing', () => {
    for (const model of ['gemini pro!', 'gemini 2.5 flash', 'google/gemini-2.5-flash', '../gemini'])
      expect(() => readModelConfig({ DEPUTY_MODEL: model }), model).toThrow(
        `DEPUTY_MODEL must be a Gemini model id, such as gemini-2.5-flash or models/gemini-2.5-pro, not “${model}”.`,
      );
    for (const model of ['models/gemini-2.5-pro', 'tunedModels/my-model-7', ' gemini-3-pro-preview '])
      expect(readModelConfig({ DEPUTY_MODEL: model }).model).toBe(model.trim());
  });
});

describe('model catalogue', () => {
  it('knows the Gemini 2.5 models with their 1 048 576-token window and tier', () => {
    expect(MODEL_PROFILES['gemini-2.5-pro']).toEqual({
      family: 'gemini-2.5',
      tier: 'pro',
      contextWindow: 1_048_576,
    });
    expect(MODEL_PROFILES['gemini-2.5-flash']?.tier).toBe('flash');
    expect(MODEL_PROFILES['gemini-2.5-flash-lite']?.tier).toBe('lite');
    expect(profileOf(DEFAULT_MODEL)).not.toBeNull();
  });

  it('gives the context window of a known model, with or without the models/ prefix', () => {
    expect(contextWindowOf('gemini-2.5-flash')).toBe(1_048_576);
    expect(contextWindowOf('models/gemini-2.5-pro')).toBe(1_048_576);
  });

  it('assumes a conservative 128 000 tokens for a model it does not know', () => {
    expect(contextWindowOf('some-local-model')).toBe(128_000);
    expect(contextWindowOf('toString')).toBe(128_000);
    expect(profileOf('__proto__')).toBeNull();
  });
});
