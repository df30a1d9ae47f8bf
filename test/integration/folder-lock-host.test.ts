import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createHost } from '../../electron/host/create-host';
import { DataFolderInUseError, lockDataFolder } from '../../electron/store/folder-lock';
import type { Tool } from '../../electron/tools/tool';
import { openHost } from '../support/host-fixture';
import { say, ScriptedModel } from '../support/scripted-model';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const folder = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'deputy-lock-host-'));
  dirs.push(dir);
  return dir;
};

describe('a host and its data folder', () => {
  it('a second host on the folder is refused, and the first one goes on working', async () => {
    const dataDir = folder();
    const first = await openHost(new ScriptedModel(say('Still here.')), { dataDir });
    await expect(openHost(new ScriptedModel(say('Me too.')), { dataDir })).rejects.toBeInstanceOf(
      DataFolderInUseError,
    );
    const run = await first.host.runToEnd({ prompt: 'Are you there?' });
    expect(run.status).toBe('completed');
    await first.host.close();
  });

  it('keeps the folder until everything it runs has stopped, then gives it up', async () => {
    const dataDir = folder();
    const { host } = await openHost(new ScriptedModel(), { dataDir });
    const closed = host.close();
    // The store is closed by now, but the workers and servers are still stopping.
    expect(() => lockDataFolder(dataDir)).toThrow(DataFolderInUseError);
    await closed;
    lockDataFolder(dataDir).release();
  });

  it('gives the folder back when it fails to start', async () => {
    const dataDir = folder();
    const broken = {
      get name(): string {
        throw new Error('this tool cannot be read');
      },
    } as unknown as Tool;
    await expect(
      createHost({ dataDir, env: {}, extraTools: [broken], logError: () => {}, logNotice: () => {} }),
    ).rejects.toThrow('this tool cannot be read');
    lockDataFolder(dataDir).release();
  });
});
