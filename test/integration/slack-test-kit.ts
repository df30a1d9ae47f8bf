import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { ConnectionStatus } from '../../shared/contract';
import { SlackConnector } from '../../electron/connections/slack-connector';
import type { Env } from '../../electron/host/settings';
import { openDatabase, type Db } from '../../electron/store/database';
import type { ToolContext } from '../../electron/tools/tool';
import { createKeyFileCipher } from '../../electron/vault/cipher';
import { Vault } from '../../electron/vault/vault';
import { startFakeSlack, type FakeSlack } from '../fakes/slack/server';

/** A fake Slack, a real vault (key-file cipher, in-memory SQLite) and a connector pointed at the fake. */
export interface SlackHarness {
  slack: FakeSlack;
  db: Db;
  vault: Vault;
  connector: SlackConnector;
  /** The status at every `changed()` call. */
  changes: ConnectionStatus[];
  opened: string[];
  logged: string[];
  /** Signs in with a fresh token the fake accepts (a pasted token) and returns it. */
  signIn(options?: { scopes?: string[] }): Promise<string>;
  close(): Promise<void>;
}

export async function startSlackHarness(
  options: { env?: Env; timeoutMs?: number; slack?: FakeSlack } = {},
): Promise<SlackHarness> {
  const slack = options.slack ?? (await startFakeSlack());
  const dir = mkdtempSync(join(tmpdir(), 'deputy-slack-'));
  const db = openDatabase(':memory:');
  const vault = new Vault(db, createKeyFileCipher(join(dir, 'vault.key')));
  const changes: ConnectionStatus[] = [];
  const opened: string[] = [];
  const logged: string[] = [];
  const connector: SlackConnector = new SlackConnector({
    vault,
    env: { ...slack.env, ...options.env },
    changed: () => changes.push(connector.status()),
    openExternal: (url) => opened.push(url),
    logError: (message, error) => logged.push(`${message}: ${String(error)}`),
    timeoutMs: options.timeoutMs,
  });
  return {
    slack,
    db,
    vault,
    connector,
    changes,
    opened,
    logged,
    signIn: async (signInOptions = {}) => {
      const token = slack.state.issueToken({ scopes: signInOptions.scopes });
      await connector.connect({ name: 'slack', token });
      return token;
    },
    close: async () => {
      connector.close();
      await slack.close();
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export function toolContext(idempotencyKey = 'idem-0123456789abcdef'): ToolContext {
  return {
    runId: 'run-1',
    threadId: 'thread-1',
    actionId: 'action-1',
    idempotencyKey,
    signal: new AbortController().signal,
    now: () => new Date('2026-01-01T12:00:00Z'),
  };
}

/** The connector finishes a browser sign-in in the background; this waits for it to leave `connecting`. */
export async function settled(connector: SlackConnector): Promise<ConnectionStatus> {
  const deadline = Date.now() + 5_000;
  while (connector.status().state === 'connecting') {
    if (Date.now() > deadline) throw new Error('the sign-in did not settle');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return connector.status();
}

/** The thrown error of a promise that must fail. */
export async function failure(promise: Promise<unknown> | unknown): Promise<Error> {
  const error = await Promise.resolve(promise).then(
    () => null,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(Error);
  return error as Error;
}

/** No Slack token (this one or any shaped like one) in the text. */
export function expectNoToken(text: string, token?: string): void {
  if (token) expect(text).not.toContain(token);
  expect(text).not.toMatch(/xox[abposer]-[\w-]{10,}/);
}
