import { afterEach, expect } from 'vitest';
import type { AuditEntry, AutonomyLevel } from '../../shared/contract';
import { DEFAULT_AUTONOMY } from '../../shared/contract';
import { startFakeGoogle, type FakeGoogle } from '../fakes/google/server';
import { startFakeSlack, type FakeSlack } from '../fakes/slack/server';
import { connectGoogle, googleEnv } from './connect';
import { openHost, type HostFixture } from './host-fixture';
import { call, say, type ScriptedModel } from './scripted-model';

export const NOW = new Date('2026-11-23T07:00:00.000Z');
const meta = { intent: 'act for the person', confidence: 0.95 };
/** Every kind of action on `auto`: the undo tests choose when the policy asks. */
export const ALL_AUTO = Object.fromEntries(
  Object.keys(DEFAULT_AUTONOMY).map((kind) => [kind, 'auto']),
) as Record<keyof typeof DEFAULT_AUTONOMY, AutonomyLevel>;

/** What the undo tests share: a host that acts on its own, optionally connected to the Google and Slack fakes. */
export interface UndoHost {
  fixture: HostFixture | null;
  google: FakeGoogle | null;
  slack: FakeSlack | null;
}

/**
 * A host for the undo tests (closed after each test, with its fakes), and the two steps every test takes: run
 * one scripted tool call to its end (`act`), and undo its entry, checking the links both ways (`undo`).
 */
export function useUndoHost() {
  const state: UndoHost = { fixture: null, google: null, slack: null };
  afterEach(async () => {
    await state.fixture?.close();
    await state.google?.close();
    await state.slack?.close();
    state.fixture = state.google = state.slack = null;
  });

  async function open(model: ScriptedModel, connected = false): Promise<HostFixture> {
    if (connected) {
      state.google = await startFakeGoogle();
      state.slack = await startFakeSlack();
    }
    const { google, slack } = state;
    const fixture = await openHost(model, {
      now: () => NOW,
      ...(connected && google && slack && { env: { ...googleEnv(google), ...slack.env } }),
    });
    state.fixture = fixture;
    await fixture.host.invoke('settings.set', {
      trustLevel: 'autonomous',
      autonomy: ALL_AUTO,
      requireApprovalForFirstContact: false,
      timezone: 'Europe/Paris',
    });
    if (connected && slack) {
      await connectGoogle(fixture.host);
      await fixture.host.invoke('connections.connect', { name: 'slack', token: slack.state.issueToken() });
    }
    return fixture;
  }

  /** Runs one scripted tool call to its end and answers its audit entry. */
  async function act(
    model: ScriptedModel,
    tool: string,
    args: Record<string, unknown>,
    isReadOnly = false,
  ): Promise<AuditEntry> {
    const host = state.fixture?.host;
    if (!host) throw new Error('no host');
    const withMeta = isReadOnly ? args : { ...args, ...meta };
    model.script(call(tool, withMeta, `call-${tool}-${model.requests.length}`), say('Done.'));
    const done = await host.runToEnd({ prompt: `Please ${tool}` });
    expect(done.status).toBe('completed');
    const entry = (await host.invoke('audit.list', { tool, runId: done.runId })).entries[0];
    if (!entry) throw new Error(`no entry for ${tool}`);
    expect({ status: entry.status, error: entry.errorMessage }).toEqual({ status: 'completed', error: null });
    return entry;
  }

  /** Undoes an entry; it must be undone at once, the original and its undo linked both ways. */
  async function undo(entry: AuditEntry) {
    const result = await state.fixture?.host.invoke('audit.undo', { id: entry.id });
    expect(result?.status).toBe('undone');
    expect(result?.original).toMatchObject({ status: 'rolled_back', undo: { undoneBy: result?.undo?.id } });
    expect(result?.undo).toMatchObject({
      kind: 'undo',
      status: 'completed',
      undo: { undoOf: entry.id },
      actionType: entry.actionType,
    });
    return result;
  }

  return { state, open, act, undo };
}
