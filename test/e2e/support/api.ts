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
