import { describe, expect, it } from 'vitest';
import { DEFAULT_MODEL, readModelConfig } from '../../../electron/llm/model-config';

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
});
