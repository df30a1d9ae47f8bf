import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { createGeminiClient } from '../../electron/llm/gemini-client';
import { REDACTED } from '../../electron/vault/redactor';
import { textReply } from '../fakes/gemini/script';
import { startFakeGemini } from '../fakes/gemini/server';
import type { FakeGemini } from '../fakes/gemini/types';
import { readAll, scanFor } from '../support/byte-scan';
import { openHost, type HostFixture } from '../support/host-fixture';

/** Keys of shapes the vault never saw, pasted as a person copies them from a terminal or a dashboard. */
const PASTED = {
  openAi: 'sk-proj-Abc123Def456Ghi789Jkl012Mno345Pqr678Stu901',
  github: 'ghp_1234567890abcdefghijklmnopqrstuvwxyzAB',
  awsId: 'AKIAIOSFODNN7EXAMPLE',
  awsSecret: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  stripe: 'sk_live_51HabcdefghijklmnopqrstuvWXyz',
  envKey: 'zzEnvApiKeyValue0123456789abcdefXYZ',
  password: 'Hunter2-Correct-Horse-Battery',
  dbPassword: 'S3cretPassw0rd!',
};
const NEEDLES = Object.values(PASTED);

let gemini: FakeGemini | undefined;
let fixture: HostFixture | undefined;
let isStopped = false;
afterEach(async () => {
  if (fixture && !isStopped) await fixture.stop();
  if (fixture) rmSync(fixture.dataDir, { recursive: true, force: true });
  await gemini?.close();
  fixture = gemini = undefined;
  isStopped = false;
});

describe('secrets pasted into a prompt', () => {
  it('reach neither the Gemini request nor any file of the data folder, the database included', async () => {
    gemini = await startFakeGemini();
    fixture = await openHost(createGeminiClient({ apiKey: 'k', baseUrl: gemini.url }));
    const { host, dataDir } = fixture;
    gemini.script(textReply('Noted.'));
    const prompt = [
      `Keep these for later: export OPENAI_API_KEY=${PASTED.openAi}`,
      `github ${PASTED.github}, aws ${PASTED.awsId} / AWS_SECRET_ACCESS_KEY=${PASTED.awsSecret}`,
      `stripe ${PASTED.stripe}; export MY_API_KEY=${PASTED.envKey} and password: ${PASTED.password}`,
      `DATABASE_URL=postgres://admin:${PASTED.dbPassword}@db.example.com/prod`,
    ].join('\n');

    const done = await host.runToEnd({ prompt });
    expect(done.status).toBe('completed');

    const sent = JSON.stringify(gemini.requests.map((request) => request.body.contents));
    for (const needle of NEEDLES) expect(sent).not.toContain(needle);
    expect(sent).toContain(`OPENAI_API_KEY=${REDACTED}`);
    expect(sent).toContain(`postgres://admin:${REDACTED}@db.example.com/prod`);

    const thread = await host.invoke('thread.get', { threadId: done.threadId });
    const shown = thread.messages.find((message) => message.role === 'user')?.text ?? '';
    expect(shown).toContain(`export OPENAI_API_KEY=${REDACTED}`);

    // While the host runs, the newest pages are in the WAL; a clean close folds them into deputy.db.
    const running = scanFor(NEEDLES, readAll(dataDir));
    await fixture.stop();
    isStopped = true;
    const closed = scanFor(NEEDLES, readAll(dataDir));
    expect(running.files).toContain('deputy.db');
    expect([running.hits, closed.hits]).toEqual([[], []]);
  });

  it('leave code and links beside them as written, in the Gemini request and the thread', async () => {
    gemini = await startFakeGemini();
    fixture = await openHost(createGeminiClient({ apiKey: 'k', baseUrl: gemini.url }));
    gemini.script(textReply('Noted.'));
    const ordinary = [
      'const apiKey = getApiKey(config);',
      'let password = form.value.trim();',
      'https://zoom.us/j/123456789?pwd=AbCdEfGh12345',
      '--private-key=/home/ana/.ssh/id_ed25519',
    ];
    const prompt = `Why does this fail?\n${ordinary.join('\n')}\nexport MY_API_KEY=${PASTED.envKey}`;

    const done = await fixture.host.runToEnd({ prompt });

    const sent = JSON.stringify(gemini.requests.map((request) => request.body.contents));
    const thread = await fixture.host.invoke('thread.get', { threadId: done.threadId });
    const shown = thread.messages.find((message) => message.role === 'user')?.text ?? '';
    for (const line of ordinary) {
      expect(sent).toContain(JSON.stringify(line).slice(1, -1));
      expect(shown).toContain(line);
    }
    expect(shown).toContain(`export MY_API_KEY=${REDACTED}`);
  });
});
