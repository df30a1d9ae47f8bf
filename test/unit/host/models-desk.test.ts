import { ApiError } from '@google/genai';
import { describe, expect, it } from 'vitest';
import { ModelsDesk } from '../../../electron/host/models-desk';

function deskThatFails(error: unknown): { desk: ModelsDesk; calls: () => number } {
  let calls = 0;
  const desk = new ModelsDesk({
    fetch: () => {
      calls += 1;
      return Promise.reject(error);
    },
    keyId: () => 'key-1',
    now: () => 1_000,
    logError: () => {},
  });
  return { desk, calls: () => calls };
}

describe('the models desk, when Gemini cannot list the models', () => {
  it('says the key was refused when Gemini refused it, and remembers that for a minute', async () => {
    const { desk, calls } = deskThatFails(new ApiError({ message: 'API key not valid.', status: 401 }));
    const first = await desk.list();
    expect(first.models).toEqual([]);
    expect(first.note).toContain('didn’t accept your API key');
    expect(first.note).not.toContain('could not be reached');
    expect((await desk.list()).note).toBe(first.note);
    expect(calls()).toBe(1);
  });

  it('says Gemini could not be reached when the network failed', async () => {
    const refused = Object.assign(new Error('fetch failed'), { cause: { code: 'ECONNREFUSED' } });
    const { desk } = deskThatFails(refused);
    expect((await desk.list()).note).toContain('could not be reached');
  });
});
