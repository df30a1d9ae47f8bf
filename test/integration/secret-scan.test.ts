import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Tool } from '../../electron/tools/tool';
import { forgetKnownSecrets } from '../../electron/vault/redactor';
import { encodings, readAll, scanFor, type Scan } from '../support/byte-scan';
import { storeOf } from '../support/durable-kit';
import { openHost, type HostFixture } from '../support/host-fixture';
import { call, say, ScriptedModel } from '../support/scripted-model';
import { syntheticMailTools } from '../support/synthetic-tools';

/**
 * Every byte Deputy leaves in its data folder, scanned for secrets a person pasted and a service returned,
 * after a restart (when the vault's secrets are known only if start-up loaded them).
 */

// In the vault before the restart. The API token has no known shape: only the vault can say it is a secret.
const VAULT = {
  slackToken: 'xoxp-2718281828-3141592653-5772156649-fe0a1b2c3d4e5f60718293a4b5c6d7e8',
  geminiKey: 'AIzaSyVault-gemini-key-QWERTYUIOPasdfghjkl0',
  apiToken: 'vault-only-api-token-Zm9vYmFyYmF6cXV4c2VjcmV0',
};
const PEM_BODY = 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQDpastedKeyBody0';
const SHAPES = {
  googleAccess: 'ya29.a0AfB_pastedAccessToken-0123456789abcdef',
  googleRefresh: '1//0gPastedRefreshToken-abcdefghijklmnopqrstuvwxyz',
  apiKey: 'AIzaSyPasted-api-key-0123456789abcdefghij',
  slackBot: 'xoxb-1234567890123-1234567890123-PastedBotTokenAbCdEf',
  bearer: 'pastedBearerCredential0123456789abcdefXYZ',
  pemBody: PEM_BODY,
  jwt: 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJwYXN0ZWQtdXNlciJ9.pastedJwtSignature_0123456789',
};
const PEM = `-----BEGIN PRIVATE KEY-----\n${PEM_BODY}\nAbCdEfGhIjKlMnOpQrStUvWxYz0123456789+/==\n-----END PRIVATE KEY-----`;

/** One text with every secret in it, as a person would paste it or a service would return it. */
function everySecret(where: string): string {
  return [
    `${where}: the Slack token is ${VAULT.slackToken} and the Gemini key ${VAULT.geminiKey}.`,
    `And this one, from Deputy's settings (no known shape): ${VAULT.apiToken}`,
    `Google: access ${SHAPES.googleAccess}, refresh ${SHAPES.googleRefresh}, key ${SHAPES.apiKey}`,
    `Slack bot ${SHAPES.slackBot}`,
    `curl -H "Authorization: Bearer ${SHAPES.bearer}"`,
    `session ${SHAPES.jwt}`,
    PEM,
  ].join('\n');
}

const NEEDLES: readonly string[] = [...Object.values(VAULT), ...Object.values(SHAPES)];

/** A mailbox read that returns everything pasted above, and a look-up that fails with a token in its error. */
function leakyTools(): Tool[] {
  const readMail: Tool<Record<string, never>> = {
    name: 'read_mail',
    description: 'Read the latest email.',
    input: z.object({}).strict(),
    output: z.object({ body: z.string() }),
    category: 'query',
    risk: 'low',
    hasSideEffects: false,
    execute: () => ({ body: everySecret('A mail') }),
  };
  const lookUp: Tool<Record<string, never>> = {
    name: 'look_up',
    description: 'Look something up.',
    input: z.object({}).strict(),
    output: z.object({ found: z.boolean() }),
    category: 'query',
    risk: 'low',
    hasSideEffects: false,
    execute: () => {
      throw new Error(`401 for ${everySecret('A service error')}`);
    },
  };
  return [readMail, lookUp];
}

const sure = { intent: 'mail Sam', reasoning: 'asked', confidence: 0.95, assumptions: [] };

const dataDirs: string[] = [];
let running: HostFixture | undefined;
afterEach(async () => {
  await running?.stop();
  running = undefined;
  for (const dir of dataDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A host on `dataDir` as a new process would start it: no secret known until start-up reads the vault. */
async function restart(dataDir: string, model: ScriptedModel, sent: { to: string[]; body: string }[]) {
  forgetKnownSecrets();
  running = await openHost(model, { dataDir, tools: [...leakyTools(), ...syntheticMailTools(sent)] });
  return running;
}

function report(when: string, result: Scan): void {
  console.log(
    `secret scan (${when}): ${result.files.length} files (${result.files.join(', ')}), ${result.bytes} bytes, ` +
      `${NEEDLES.length} secrets × ${encodings('x').length} encodings, ${result.hits.length} hits`,
  );
}

describe('the data folder after a restart and pasted secrets', () => {
  it('holds no secret, raw, hex or base64, in any file, and the checkpoint agrees with the thread', async () => {
    const first = await openHost(null);
    dataDirs.push(first.dataDir);
    const { dataDir } = first;
    first.host.vault.set('slack.token', VAULT.slackToken);
    first.host.vault.set('gemini.apiKey', VAULT.geminiKey);
    first.host.vault.set('api.token', VAULT.apiToken);
    await first.stop();

    const model = new ScriptedModel(
      call('read_mail', {}, 'c-read'),
      call('look_up', {}, 'c-look'),
      say(`Here is what I found: ${SHAPES.jwt}`),
      call('read_mail', {}, 'c-read-2'),
      call('send_message', { to: ['sam@partner.io'], body: 'Hi Sam, see you Friday.', ...sure }, 'c-send'),
    );
    const sent: { to: string[]; body: string }[] = [];
    const second = await restart(dataDir, model, sent);
    const { host } = second;
    await host.invoke('settings.set', { preferences: everySecret('My preferences') });
    const completed = await host.runToEnd({
      prompt: everySecret('My prompt'),
      conversation: [{ role: 'user', text: everySecret('An earlier turn') }],
      attachedContext: [{ type: 'email', id: 'm-1', title: 'Keys', snippet: everySecret('A snippet') }],
    });
    expect(completed.status).toBe('completed');
    const paused = await host.runToEnd({
      prompt: everySecret('Then mail Sam'),
      threadId: completed.threadId,
    });
    expect(paused.status).toBe('awaiting_confirmation');
    expect(sent).toEqual([]);

    // While the host runs the newest pages live in the WAL; a clean close folds them into the database.
    const scans: [string, Scan][] = [['running', scanFor(NEEDLES, readAll(dataDir))]];

    // The thread and the checkpoint of the same run hold the same prompt.
    const thread = await host.invoke('thread.get', { threadId: completed.threadId });
    const shown = thread.messages.find(
      (message) => message.runId === paused.runId && message.role === 'user',
    );
    const checkpoint = storeOf(host).checkpoints.load(paused.runId)?.state as {
      messages: { role: string; parts: { kind: string; text?: string }[] }[];
    };
    const prompted = checkpoint.messages
      .filter((message) => message.role === 'user')
      .flatMap((message) => message.parts)
      .find((part) => part.text?.startsWith('Then mail Sam'));
    expect(shown?.text).toContain('[redacted]');
    expect(prompted?.text).toBe(shown?.text);
    await second.stop();
    scans.push(['closed', scanFor(NEEDLES, readAll(dataDir))]);

    // Started again, the paused run is approved from its checkpoint and finishes.
    const third = await restart(dataDir, new ScriptedModel(say('Sent.')), sent);
    const approvalId = paused.approval?.id ?? '';
    const done = await third.host.invoke('approval.decide', { approvalId, decision: 'approve' });
    expect(done.status).toBe('completed');
    expect(sent).toEqual([{ to: ['sam@partner.io'], body: 'Hi Sam, see you Friday.' }]);
    await third.stop();
    running = undefined;
    scans.push(['approved after a second restart', scanFor(NEEDLES, readAll(dataDir))]);

    for (const [when, result] of scans) report(when, result);
    expect(scans.map(([when, result]) => [when, result.hits])).toEqual(scans.map(([when]) => [when, []]));
    expect(scans[0]?.[1].files).toEqual(
      expect.arrayContaining(['deputy.db', 'deputy.db-wal', 'deputy.db-shm', 'vault.key']),
    );
    expect(scans[2]?.[1].files).toContain('deputy.db');

    // The model never saw a secret, so it had none to copy.
    const seen = JSON.stringify(model.requests);
    for (const needle of NEEDLES) expect(seen).not.toContain(needle);
    expect(seen).toContain('[redacted]');
  });

  it('finds a secret in every encoding it looks for (the scan itself can fail)', () => {
    for (const needle of NEEDLES) {
      for (const shift of ['', 'a', 'ab']) {
        const text = `${shift}prefix ${needle} suffix`;
        const planted = [
          Buffer.from(text),
          Buffer.from(Buffer.from(text).toString('hex')),
          Buffer.from(Buffer.from(text).toString('base64')),
          Buffer.from(Buffer.from(text).toString('base64url')),
        ];
        for (const content of planted) {
          expect(scanFor(NEEDLES, [{ name: 'planted', content }]).hits.length).toBeGreaterThan(0);
        }
      }
    }
  });
});
