import { afterEach, describe, expect, it } from 'vitest';
import { say, ScriptedModel } from '../../support/scripted-model';
import { openHost, type HostFixture } from '../../support/host-fixture';

let fixture: HostFixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

describe("a run's decision entry", () => {
  it('keeps what the run was asked, redacted and cut short, so the audit row can say it', async () => {
    fixture = await openHost(new ScriptedModel(say('Sure.'), say('Fine.')));
    const { host } = fixture;
    await host.runToEnd({ prompt: 'What does my week look like?' });
    const long = `My key is AIzaSyA1234567890abcdefghijklmnopqrstuv ${'and more '.repeat(100)}`;
    await host.runToEnd({ prompt: long });

    const { entries } = await host.invoke('audit.list', { category: 'decision' });
    const requests = entries.map((entry) => (entry.input as { request?: string }).request ?? '');
    expect(requests[1]).toBe('What does my week look like?');
    const kept = requests[0] ?? '';
    expect(kept).not.toContain('AIzaSyA1234567890');
    expect(Array.from(kept)).toHaveLength(500);
    expect(kept.endsWith('…')).toBe(true);
    // The rest of the input is as before: the decision, the outcome and the intent.
    expect(entries[1]?.input).toMatchObject({ decision: 'RESPOND_ONLY', outcome: 'SUCCESS:RESPONSE_GIVEN' });
  });
});
