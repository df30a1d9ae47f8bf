import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Settings, SettingsPatch } from '../../../shared/contract';
import type { RunningHost } from './host';

/** Changes settings over the host's HTTP API, as a script would (`PUT /api/settings`). */
export async function putSettings(host: RunningHost, patch: SettingsPatch): Promise<Settings> {
  const response = await fetch(`${host.url}/api/settings`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${host.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(patch),
  });
  if (!response.ok)
    throw new Error(`PUT /api/settings answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as Settings;
}

/** A request to the host's HTTP API with its token, as a script would send it. */
export const apiOf =
  (host: RunningHost) =>
  (path: string, init: RequestInit = {}): Promise<Response> =>
    fetch(`${host.url}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${host.token}`, 'content-type': 'application/json' },
    });

/** Runs a prompt to its end over `POST /api/agent/run`; answers the run's thread. */
export async function askOver(host: RunningHost, prompt: string): Promise<string> {
  const response = await apiOf(host)('/api/agent/run', { method: 'POST', body: JSON.stringify({ prompt }) });
  return ((await response.json()) as { threadId: string }).threadId;
}

/** The status the host last wrote for the latest run of this prompt (`completed`, `executing`…), or null. */
export function runStatusOf(host: RunningHost, prompt: string): string | null {
  const db = new Database(join(host.dataDir, 'deputy.db'), { readonly: true });
  try {
    const row = db
      .prepare(`SELECT status FROM runs WHERE prompt = ? ORDER BY created_at DESC, rowid DESC LIMIT 1`)
      .get(prompt) as { status: string } | undefined;
    return row?.status ?? null;
  } finally {
    db.close();
  }
}

/**
 * An approval's time runs out, as if nobody had answered for half an hour: its expiry is moved into the past,
 * then a late approve (answered 410) has the host expire it and end its run.
 */
export async function expireApproval(host: RunningHost, approvalId: string): Promise<void> {
  const db = new Database(join(host.dataDir, 'deputy.db'));
  try {
    db.prepare(`UPDATE approvals SET expires_at = '2000-01-01T00:00:00.000Z' WHERE id = ?`).run(approvalId);
  } finally {
    db.close();
  }
  const late = await apiOf(host)(`/api/actions/${approvalId}/approve`, { method: 'POST' });
  if (late.status !== 410) throw new Error(`a late approve answered ${late.status}, not 410`);
}
