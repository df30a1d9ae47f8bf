import { afterEach, describe, expect, it } from 'vitest';
import {
  LoopbackError,
  startLoopbackRedirect,
  type LoopbackRedirect,
} from '../../../electron/connections/loopback';

const STATE = 'state-0123456789abcdef';
let open: LoopbackRedirect | null = null;

afterEach(() => {
  open?.close();
  open = null;
});

async function start(timeoutMs = 5_000, path?: string): Promise<LoopbackRedirect> {
  open = await startLoopbackRedirect({ state: STATE, timeoutMs, path });
  return open;
}

async function rejection(promise: Promise<unknown>): Promise<LoopbackError> {
  const error = await promise.then(
    () => null,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(LoopbackError);
  return error as LoopbackError;
}

describe('startLoopbackRedirect', () => {
  it('listens on 127.0.0.1 with a random port and hands over the code of a redirect with our state', async () => {
    const loopback = await start();
    expect(loopback.redirectUri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    expect(new URL(loopback.redirectUri).port).not.toBe('0');

    const response = await fetch(`${loopback.redirectUri}?code=4%2F0abc&state=${STATE}`);
    expect(response.status).toBe(200);
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    const page = await response.text();
    // Deputy has not finished signing in yet (the code is still to be traded for tokens): the page does not say it has.
    expect(page).toContain(
      'Deputy is finishing the sign-in: its window says when you are connected, or what went wrong.',
    );
    expect(page).not.toContain('Signed in');
    expect(page).not.toMatch(/<script|src=|href=/i);
    await expect(loopback.code).resolves.toBe('4/0abc');
  });

  it('answers 404 to other paths without ending the wait', async () => {
    const loopback = await start();
    const favicon = await fetch(new URL('/favicon.ico', loopback.redirectUri));
    expect(favicon.status).toBe(404);
    await fetch(`${loopback.redirectUri}?code=abc&state=${STATE}`);
    await expect(loopback.code).resolves.toBe('abc');
  });

  it('honours a custom path', async () => {
    const loopback = await start(5_000, '/slack/callback');
    expect(loopback.redirectUri).toMatch(/\/slack\/callback$/);
    await fetch(`${loopback.redirectUri}?code=xyz&state=${STATE}`);
    await expect(loopback.code).resolves.toBe('xyz');
  });

  it('refuses a redirect whose state is not ours, never hands over its code, and keeps waiting', async () => {
    const loopback = await start();
    let isSettled = false;
    void loopback.code.then(
      () => (isSettled = true),
      () => (isSettled = true),
    );
    const forged = await fetch(`${loopback.redirectUri}?code=attacker&state=${STATE.slice(0, -1)}x`);
    expect(forged.status).toBe(400);
    expect(await forged.text()).toContain('did not match');
    // Any local page can send these; neither a forged state, nor none at all, nor a forged denial ends the wait.
    expect((await fetch(`${loopback.redirectUri}?code=attacker`)).status).toBe(400);
    expect((await fetch(`${loopback.redirectUri}?error=access_denied&state=x`)).status).toBe(400);
    expect(isSettled).toBe(false);

    const ours = await fetch(`${loopback.redirectUri}?code=ours&state=${STATE}`);
    expect(ours.status).toBe(200);
    await expect(loopback.code).resolves.toBe('ours');
  });

  it('reports a denial as access_denied and says so in the page', async () => {
    const loopback = await start();
    const response = await fetch(`${loopback.redirectUri}?error=access_denied&state=${STATE}`);
    expect(await response.text()).toContain('Access was denied');
    expect((await rejection(loopback.code)).code).toBe('access_denied');
  });

  it('reports another error or a missing code as invalid_response, without echoing odd text', async () => {
    const loopback = await start();
    const response = await fetch(`${loopback.redirectUri}?error=%3Cscript%3E&state=${STATE}`);
    const page = await response.text();
    expect(page).not.toContain('<script>');
    expect((await rejection(loopback.code)).code).toBe('invalid_response');

    const second = await start();
    await fetch(`${second.redirectUri}?state=${STATE}`);
    expect((await rejection(second.code)).code).toBe('invalid_response');
  });

  it('accepts exactly one redirect, then stops listening', async () => {
    const loopback = await start();
    await fetch(`${loopback.redirectUri}?code=first&state=${STATE}`);
    await expect(loopback.code).resolves.toBe('first');
    await expect(fetch(`${loopback.redirectUri}?code=second&state=${STATE}`)).rejects.toThrow();
  });

  it('times out', async () => {
    const loopback = await start(50);
    expect((await rejection(loopback.code)).code).toBe('timeout');
    await expect(fetch(`${loopback.redirectUri}?code=late&state=${STATE}`)).rejects.toThrow();
  });

  it('rejects with closed when closed before the redirect', async () => {
    const loopback = await start();
    loopback.close();
    loopback.close();
    expect((await rejection(loopback.code)).code).toBe('closed');
  });
});
