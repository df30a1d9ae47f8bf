import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EFFECT_CUT_OFF } from '../../electron/engine/cut-off-calls';
import type { Host } from '../../electron/host/create-host';
import type { ModelClient } from '../../electron/llm/model-client';
import { startFakeGoogle, type FakeGoogle } from '../fakes/google/server';
import { connectGoogle, googleEnv } from '../support/connect';
import { callOf, storeOf, until } from '../support/durable-kit';
import { openHost, type HostFixture } from '../support/host-fixture';
import { call, say, ScriptedModel } from '../support/scripted-model';

/*
 * A side effect its run ended around (still `started` when the run ended) is looked for in the service, as one cut
 * off by a crash is at the next start: found, it is committed and its card says done; not found, it is `unknown`,
 * "Not sure it happened". It is never sent again. Against the fake Gmail, which speaks Gmail's REST shapes.
 */

const open: HostFixture[] = [];
const dirs: string[] = [];
let google: FakeGoogle | null = null;
afterEach(async () => {
  for (const fixture of open.splice(0)) await fixture.stop().catch(() => {});
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  await google?.close();
  google = null;
});

const meta = { intent: 'act for the user', confidence: 0.95 };
const MAIL = { to: ['ana@example.com'], subject: 'Q4 numbers', body: 'They are on their way.', ...meta };

const begin = async (model: ModelClient, dataDir?: string) => {
  google ??= await startFakeGoogle();
  const dir = dataDir ?? mkdtempSync(join(tmpdir(), 'deputy-ended-effects-'));
  if (!dirs.includes(dir)) dirs.push(dir);
  const fixture = await openHost(model, { dataDir: dir, env: googleEnv(google) });
  open.push(fixture);
  return fixture;
};

const sends = (): number =>
  google?.requests.filter((request) => request.method === 'POST' && request.path.endsWith('/messages/send'))
    .length ?? 0;

const ledgerStateOf = (host: Host, actionId: string) => storeOf(host).actions.get(actionId)?.ledgerState;

/** Sends the mail with the person's approval; the run completes. */
async function sendMail(host: Host) {
  await connectGoogle(host);
  const paused = await host.runToEnd({ prompt: 'Mail Ana the numbers' });
  expect(paused.status).toBe('awaiting_confirmation');
  const done = await host.approvals.decide({ approvalId: paused.approval?.id ?? '', decision: 'approve' });
  expect(done.status).toBe('completed');
  return paused;
}

/** The send as a run that ended before its ending settled such calls left it: `started`, its entry pending. */
function asLeftRunning(host: Host, actionId: string): void {
  const store = storeOf(host);
  const now = new Date().toISOString();
  store.transaction(() => {
    store.actions.finish(actionId, { state: 'started' }, now);
    store.audit.settle(actionId, { status: 'pending' }, now);
  });
}

describe('a side effect a run that has ended left started, at the next start', () => {
  it('is committed when the mail is found in Gmail, and never sent again', async () => {
    const first = await begin(new ScriptedModel(call('gmail_send', MAIL), say('Sent.')));
    const { runId, threadId } = await sendMail(first.host);
    const { id } = await callOf(first.host, threadId, 'gmail_send');
    asLeftRunning(first.host, id);
    expect(await callOf(first.host, threadId, 'gmail_send')).toMatchObject({
      card: { ledgerState: 'started' },
      audit: { status: 'pending' },
    });
    await first.stop();

    const again = await begin(new ScriptedModel(), first.dataDir);
    await until(() => ledgerStateOf(again.host, id) !== 'started');
    expect(await callOf(again.host, threadId, 'gmail_send')).toMatchObject({
      card: { state: 'completed', ledgerState: 'committed', error: null, label: 'Done' },
      audit: { status: 'completed', errorMessage: null },
    });
    expect(storeOf(again.host).runs.get(runId)?.status).toBe('completed');
    expect(again.host.approvals.pending()).toEqual([]);
    expect(google?.gmail.sent).toHaveLength(1);
    expect(sends()).toBe(1);
  });

  it('is not sure it happened when the mail is not in Gmail, and is not sent again', async () => {
    const first = await begin(new ScriptedModel(call('gmail_send', MAIL), say('Sent.')));
    const { threadId } = await sendMail(first.host);
    const { id } = await callOf(first.host, threadId, 'gmail_send');
    asLeftRunning(first.host, id);
    await first.stop();
    // Gone from Gmail (as if the send never landed): the look-up finds nothing.
    google?.gmail.sent.splice(0);
    google?.gmail.messages.splice(0);

    const again = await begin(new ScriptedModel(), first.dataDir);
    await until(() => ledgerStateOf(again.host, id) !== 'started');
    expect(await callOf(again.host, threadId, 'gmail_send')).toMatchObject({
      card: {
        ledgerState: 'unknown',
        error: EFFECT_CUT_OFF,
        label: 'Not sure it happened — waiting for you',
      },
      audit: { status: 'pending', errorMessage: EFFECT_CUT_OFF },
    });
    expect(again.host.approvals.pending()).toEqual([]);
    expect(google?.gmail.sent).toHaveLength(0);
    expect(sends()).toBe(1);
  });
});
