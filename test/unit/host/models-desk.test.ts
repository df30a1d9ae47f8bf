import { describe, expect, it } from 'vitest';
import { ModelsDesk } from '../../../electron/host/models-desk';
import { ModelError } from '../../../electron/llm/model-client';

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
    const { desk, calls } = deskThatFails(
      new ModelError('key_rejected', 'Gemini rejected the API key (HTTP 400).'),
    );
    const first = await desk.list();
    expect(first.models).toEqual([]);
    expect(first.note).toContain('didn’t accept your API key');
    expect(first.note).not.toContain('could not be reached');
    expect((await desk.list()).note).toBe(first.note);
    expect(calls()).toBe(1);
  });

  it('says Gemini could not be reached when the network failed', async () => {
    const { desk } = deskThatFails(new ModelError('unavailable', 'Could not connect to Gemini.'));
    expect((await desk.list()).note).toContain('could not be reached');
  });
});
