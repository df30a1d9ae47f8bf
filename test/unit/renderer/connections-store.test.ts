import { describe, expect, it } from 'vitest';
import type { ConnectionsConnectOutput } from '../../../shared/contract';
import { ClientError } from '../../../renderer/src/api/client-error';
import { createConnectionsStore } from '../../../renderer/src/features/connections/connections-store';
import { sampleConnection } from './connections-fixtures';
import { fakeClient } from './fixtures';

const google = sampleConnection({ name: 'google' });
const slack = sampleConnection({ name: 'slack' });
const gemini = sampleConnection({ name: 'gemini' });
const listed = async () => ({ connections: [google, slack, gemini] });

describe('connections store', () => {
  it('lists the connections, follows connections.changed, and stops when unsubscribed', async () => {
    const fake = fakeClient({ 'connections.list': listed });
    const store = createConnectionsStore(fake.client);
    const unfollow = store.getState().follow();
    await expect.poll(() => store.getState().connections?.length).toBe(3);

    const connected = { ...gemini, state: 'connected' as const, account: 'the key you saved' };
    fake.emit('connections.changed', { connections: [google, slack, connected] });
    expect(store.getState().connections?.find((status) => status.name === 'gemini')).toEqual(connected);
    unfollow();
    expect(fake.subscribers('connections.changed')).toBe(0);
  });

  it('keeps a disconnect, and what connections.changed said, over a list read before them and answered after', async () => {
    const connected = { ...gemini, state: 'connected' as const, account: 'the key you saved' };
    const reads: ((list: { connections: (typeof gemini)[] }) => void)[] = [];
    const fake = fakeClient({
      'connections.list': () => new Promise((resolve) => reads.push(resolve)),
      'connections.disconnect': async () => ({ status: gemini }),
    });
    const store = createConnectionsStore(fake.client);
    store.getState().follow();
    reads.shift()?.({ connections: [google, slack, connected] });
    await expect.poll(() => store.getState().connections?.length).toBe(3);
    // Settings opened again reads the list; the person disconnects before the slow host answers that read.
    const reading = store.getState().load();
    expect(await store.getState().disconnect('gemini')).toBe(true);
    reads.shift()?.({ connections: [google, slack, connected] });
    await reading;
    expect(store.getState().connections?.find((status) => status.name === 'gemini')?.state).toBe(
      'disconnected',
    );
    // So with an event: the list it carried stays.
    const again = store.getState().load();
    fake.emit('connections.changed', { connections: [google, slack, connected] });
    reads.shift()?.({ connections: [google, slack, gemini] });
    await again;
    expect(store.getState().connections?.find((status) => status.name === 'gemini')?.state).toBe('connected');
  });

  it('shows why the list could not be read', async () => {
    const fake = fakeClient({
      'connections.list': () => Promise.reject(new ClientError('disconnected', 'Lost the connection.')),
    });
    const store = createConnectionsStore(fake.client);
    await store.getState().load();
    expect(store.getState()).toMatchObject({ connections: null, loadError: 'Lost the connection.' });
  });

  it('sends a key, keeps the returned status, and keeps no secret anywhere in its state', async () => {
    let answer: () => void = () => undefined;
    const fake = fakeClient({
      'connections.list': listed,
      'connections.connect': () =>
        new Promise<ConnectionsConnectOutput>(
          (resolve) =>
            (answer = () =>
              resolve({
                status: { ...gemini, state: 'connected', account: 'API key saved' },
                authUrl: null,
              })),
        ),
    });
    const store = createConnectionsStore(fake.client);
    await store.getState().load();

    const connecting = store.getState().connect({ name: 'gemini', apiKey: 'AIza-very-secret' });
    expect(store.getState().activity.gemini).toEqual({
      inFlight: 'connect',
      error: null,
      notice: null,
      isInputRefused: false,
    });
    // A second click while the first is in flight sends nothing.
    expect(await store.getState().connect({ name: 'gemini', apiKey: 'AIza-other' })).toBe(false);
    answer();
    expect(await connecting).toBe(true);

    expect(fake.calls.filter((call) => call.channel === 'connections.connect')).toEqual([
      { channel: 'connections.connect', input: { name: 'gemini', apiKey: 'AIza-very-secret' } },
    ]);
    expect(store.getState().activity.gemini).toEqual({
      inFlight: null,
      error: null,
      notice: null,
      isInputRefused: false,
    });
    expect(store.getState().connections?.find((status) => status.name === 'gemini')?.state).toBe('connected');
    expect(JSON.stringify(store.getState())).not.toContain('AIza');
  });

  it('keeps the sign-in page from the reply while waiting, then shows connected from connections.changed', async () => {
    const authUrl = 'http://127.0.0.1:9/o/oauth2/v2/auth?client_id=x';
    const fake = fakeClient({
      'connections.list': listed,
      'connections.connect': async () => ({ status: { ...google, state: 'connecting' }, authUrl }),
    });
    const store = createConnectionsStore(fake.client);
    store.getState().follow();
    expect(await store.getState().connect({ name: 'google', clientId: 'id', clientSecret: 'shh' })).toBe(
      true,
    );
    expect(store.getState().connections?.find((status) => status.name === 'google')).toMatchObject({
      state: 'connecting',
      authUrl,
    });
    expect(JSON.stringify(store.getState())).not.toContain('shh');

    fake.emit('connections.changed', {
      connections: [{ ...google, state: 'connected', account: 'ada@example.com' }, slack, gemini],
    });
    expect(store.getState().connections?.[0]).toMatchObject({
      state: 'connected',
      account: 'ada@example.com',
    });
  });

  it('shows a typed host error in place for that connection only, and clears it when a sign-in completes', async () => {
    const fake = fakeClient({
      'connections.list': listed,
      'connections.connect': () =>
        Promise.reject(new ClientError('invalid_auth', 'Slack did not accept that token (invalid_auth).')),
    });
    const store = createConnectionsStore(fake.client);
    store.getState().follow();
    expect(await store.getState().connect({ name: 'slack', token: 'xoxp-bad' })).toBe(false);
    expect(store.getState().activity.slack).toEqual({
      inFlight: null,
      error: 'Slack did not accept that token (invalid_auth).',
      notice: null,
      isInputRefused: false,
    });
    expect(store.getState().activity.google).toBeUndefined();
    expect(JSON.stringify(store.getState())).not.toContain('xoxp-bad');

    // Still failing elsewhere: the error stays.
    fake.emit('connections.changed', { connections: [google, { ...slack, state: 'error' }, gemini] });
    expect(store.getState().activity.slack?.error).not.toBeNull();
    fake.emit('connections.changed', { connections: [google, { ...slack, state: 'connected' }, gemini] });
    expect(store.getState().activity.slack?.error).toBeNull();
  });

  it('says a connect was refused for what it sent only when the host refused that input', async () => {
    const refusal = new ClientError('invalid_input', 'Gemini did not accept this key, so it was not saved.');
    const locked = new ClientError(
      'secrets_unavailable',
      'The Gemini key cannot be saved: the keychain is locked.',
    );
    let answer: ClientError = refusal;
    const fake = fakeClient({
      'connections.list': listed,
      'connections.connect': () => Promise.reject(answer),
      'connections.disconnect': () => Promise.reject(refusal),
    });
    const store = createConnectionsStore(fake.client);
    await store.getState().connect({ name: 'gemini', apiKey: 'not a key' });
    expect(store.getState().activity.gemini?.isInputRefused).toBe(true);
    answer = locked;
    await store.getState().connect({ name: 'gemini', apiKey: 'AIzaSy-a-good-key' });
    expect(store.getState().activity.gemini).toMatchObject({ error: locked.message, isInputRefused: false });
    // A Disconnect sends no input of the person's: its failure never marks the field.
    await store.getState().disconnect('gemini');
    expect(store.getState().activity.gemini?.isInputRefused).toBe(false);
  });

  it('disconnects and takes the status the host answers with', async () => {
    const fake = fakeClient({
      'connections.list': async () => ({ connections: [{ ...gemini, state: 'connected' }] }),
      'connections.disconnect': async () => ({ status: gemini }),
    });
    const store = createConnectionsStore(fake.client);
    await store.getState().load();
    expect(await store.getState().disconnect('gemini')).toBe(true);
    expect(fake.calls.at(-1)).toEqual({ channel: 'connections.disconnect', input: { name: 'gemini' } });
    expect(store.getState().connections).toEqual([gemini]);
  });
});
