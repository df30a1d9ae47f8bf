import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createHost } from '../../../electron/host/create-host';
import { makeFolderPrivate } from '../../../electron/host/private-folder';

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'deputy-private-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const modeOf = (path: string): number => statSync(path).mode & 0o777;
const DATA_FILES = ['deputy.db', 'deputy.db-wal', 'deputy.db-shm', 'vault.key'];

/** A data folder as a permissive umask (022) leaves it: 0755, its files 0644. */
function looseFolder(): string {
  const dir = join(tempDir(), 'data');
  mkdirSync(dir);
  chmodSync(dir, 0o755);
  for (const name of [...DATA_FILES, 'notes.txt']) {
    writeFileSync(join(dir, name), '');
    chmodSync(join(dir, name), 0o644);
  }
  return dir;
}

// Windows has no modes to check: the data folder inherits the profile's ACL (README, "Data folder").
describe.runIf(process.platform !== 'win32')('the data folder', () => {
  it('is created owner-only, parents included, with nothing to report', () => {
    const dir = join(tempDir(), 'a', 'b', 'data');
    expect(makeFolderPrivate(dir, DATA_FILES)).toEqual([]);
    expect(modeOf(dir)).toBe(0o700);
    expect(modeOf(join(dir, '..'))).toBe(0o700);
  });

  it('is tightened with its files when others could read them, says so once, and leaves other files alone', () => {
    const dir = looseFolder();
    const notices = makeFolderPrivate(dir, DATA_FILES);
    expect(notices[0]).toBe(`Tightened permissions of ${dir} to owner-only (was 0755).`);
    expect(notices).toHaveLength(1 + DATA_FILES.length);
    expect(modeOf(dir)).toBe(0o700);
    for (const name of DATA_FILES) expect(modeOf(join(dir, name))).toBe(0o600);
    expect(modeOf(join(dir, 'notes.txt'))).toBe(0o644);

    expect(makeFolderPrivate(dir, DATA_FILES)).toEqual([]);
  });

  it('keeps a mode stricter than owner-only as it is', () => {
    const dir = join(tempDir(), 'data');
    mkdirSync(dir, { mode: 0o700 });
    writeFileSync(join(dir, 'vault.key'), '', { mode: 0o400 });
    expect(makeFolderPrivate(dir, DATA_FILES)).toEqual([]);
    expect(modeOf(join(dir, 'vault.key'))).toBe(0o400);
  });

  it('is private when a host runs on it: folder 0700; database, WAL, SHM and key file 0600', async () => {
    const notices: string[] = [];
    const fresh = join(tempDir(), 'fresh');
    // A loose folder whose database is 0644: SQLite then makes its WAL and SHM, which must come out 0600.
    const loose = looseFolder();
    for (const name of ['deputy.db-wal', 'deputy.db-shm', 'vault.key']) rmSync(join(loose, name));
    for (const dataDir of [fresh, loose]) {
      const host = await createHost({
        dataDir,
        env: {},
        modelClient: () => null,
        logNotice: (message) => notices.push(message),
        logError: () => {},
      });
      await host.invoke('settings.set', { userName: 'Ada' });
      expect(modeOf(dataDir)).toBe(0o700);
      for (const name of DATA_FILES) expect([name, modeOf(join(dataDir, name))]).toEqual([name, 0o600]);
      await host.close();
    }
    expect(notices).toEqual([
      `Tightened permissions of ${loose} to owner-only (was 0755).`,
      `Tightened permissions of ${join(loose, 'deputy.db')} to owner-only (was 0644).`,
    ]);
  });
});
