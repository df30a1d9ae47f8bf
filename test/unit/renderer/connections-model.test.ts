import { describe, expect, it } from 'vitest';
import type { ConnectionStatus } from '../../../shared/contract';
import {
  EMPTY_CLIENT,
  canDisconnect,
  connectLabel,
  describeExpiry,
  googleConnectInput,
  orderConnections,
  scopeLabel,
  slackConnectInput,
  stateLabel,
} from '../../../renderer/src/features/connections/connections-model';
import { sampleConnection } from './connections-fixtures';

describe('connections model', () => {
  it('orders the cards Gemini (the one Deputy needs), Google, Slack whatever order the host lists them', () => {
    const listed: ConnectionStatus[] = [
      sampleConnection({ name: 'slack' }),
      sampleConnection({ name: 'google' }),
      sampleConnection({ name: 'gemini' }),
    ];
    expect(orderConnections(listed).map((status) => status.name)).toEqual(['gemini', 'google', 'slack']);
    expect(listed[0]?.name).toBe('slack');
  });

  it('offers Reconnect over a connection that exists or failed, Start again while waiting, and Disconnect unless there is nothing', () => {
    expect(connectLabel(sampleConnection({ state: 'disconnected' }))).toBe('Connect');
    expect(connectLabel(sampleConnection({ state: 'connecting' }))).toBe('Start again');
    expect(connectLabel(sampleConnection({ state: 'connected' }))).toBe('Reconnect');
    const lapsed = sampleConnection({
      state: 'error',
      account: 'alice @ Deputy Test',
      error: 'Sign in again.',
    });
    expect(connectLabel(lapsed)).toBe('Reconnect');
    expect(canDisconnect(sampleConnection({ state: 'disconnected' }))).toBe(false);
    expect(canDisconnect(sampleConnection({ state: 'connecting' }))).toBe(true);
    expect(canDisconnect(lapsed)).toBe(true);
    expect(stateLabel(lapsed)).toBe('Needs attention');
  });

  it('says a first sign-in that failed left nothing connected: Not connected, Connect, no Disconnect', () => {
    const failedFirst = sampleConnection({
      state: 'error',
      account: null,
      error: 'Slack refused the sign-in.',
    });
    expect(stateLabel(failedFirst)).toBe('Not connected');
    expect(connectLabel(failedFirst)).toBe('Connect');
    expect(canDisconnect(failedFirst)).toBe(false);
    expect(stateLabel(sampleConnection({ state: 'connected', account: 'alice' }))).toBe('Connected');
  });

  it('shortens Google scope URLs and leaves Slack scopes as they are', () => {
    expect(scopeLabel('https://www.googleapis.com/auth/gmail.modify')).toBe('gmail.modify');
    expect(scopeLabel('channels:history')).toBe('channels:history');
    expect(scopeLabel('openid')).toBe('openid');
  });

  it('says whether access has expired, and nothing without a time', () => {
    const now = Date.parse('2026-11-21T10:00:00.000Z');
    expect(describeExpiry('2026-11-21T11:00:00.000Z', now)).toMatch(/^Access expires /);
    expect(describeExpiry('2026-11-21T09:00:00.000Z', now)).toMatch(/^Access expired /);
    expect(describeExpiry(null, now)).toBeNull();
    expect(describeExpiry('not a date', now)).toBeNull();
  });

  it('sends only the OAuth client fields that were filled in, trimmed', () => {
    const unconfigured = sampleConnection({ isConfigured: false });
    expect(googleConnectInput(unconfigured, EMPTY_CLIENT)).toEqual({ name: 'google' });
    expect(googleConnectInput(unconfigured, { clientId: ' id.apps ', clientSecret: '  ' })).toEqual({
      name: 'google',
      clientId: 'id.apps',
    });
    expect(googleConnectInput(unconfigured, { clientId: 'id', clientSecret: 'shh' })).toEqual({
      name: 'google',
      clientId: 'id',
      clientSecret: 'shh',
    });
  });

  it('leaves out client fields the host no longer asks for, so a working client is not replaced', () => {
    const configured = sampleConnection({ isConfigured: true });
    expect(googleConnectInput(configured, { clientId: 'typed before', clientSecret: '' })).toEqual({
      name: 'google',
    });
    expect(
      slackConnectInput({ ...configured, name: 'slack' }, '', { clientId: 'cid', clientSecret: '' }),
    ).toEqual({
      name: 'slack',
    });
  });

  it('connects Slack with a pasted token alone, else through OAuth with the client fields', () => {
    const slack = sampleConnection({ name: 'slack', isConfigured: false });
    const client = { clientId: 'cid', clientSecret: 'csecret' };
    expect(slackConnectInput(slack, ' xoxp-1 ', client)).toEqual({ name: 'slack', token: 'xoxp-1' });
    expect(slackConnectInput(slack, '   ', client)).toEqual({
      name: 'slack',
      clientId: 'cid',
      clientSecret: 'csecret',
    });
    expect(slackConnectInput(slack, '', EMPTY_CLIENT)).toEqual({ name: 'slack' });
  });
});
