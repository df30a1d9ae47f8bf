import { existsSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { migrate, openDatabase } from '../../../electron/store/database';
import { migrations } from '../../../electron/store/migrations';
import { Store } from '../../../electron/store/store';

const dirs: string[] = [];
function tempFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'deputy-store-'));
  dirs.push(dir);
  return join(dir, 'nested', 'deputy.db');
}
/**
 * The unlinked files this process holds open (where SQLite's temporary files show, on Linux), or none where
 * /proc does not say.
 */
function unlinkedFiles(): Set<string> {
  if (!existsSync('/proc/self/fd')) return new Set();
  return new Set(
    readdirSync('/proc/self/fd').flatMap((fd) => {
      try {
        const target = readlinkSync(`/proc/self/fd/${fd}`);
        return target.endsWith('(deleted)') ? [`${fd} ${target}`] : [];
      } catch {
        return [];
      }
    }),
  );
}

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('store', () => {
  it('opens in WAL mode with foreign keys, migrated to the latest version', () => {
    const db = openDatabase(tempFile());
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.pragma('user_version', { simple: true })).toBe(migrations.at(-1)?.version);
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all();
    expect(tables).toEqual(
      expect.arrayContaining(['threads', 'messages', 'runs', 'actions', 'events', 'tasks']),
    );
    db.close();
  });

  it("keeps a savepoint's journal in memory, even for a group larger than 64 KiB", () => {
    const db = openDatabase(tempFile(), []);
    expect(db.pragma('temp_store', { simple: true })).toBe(2);
    db.exec('CREATE TABLE notes (text TEXT)');
    const insert = db.prepare('INSERT INTO notes (text) VALUES (?)');
    for (let index = 0; index < 200; index += 1) insert.run('x'.repeat(2000));
    const rewrite = db.prepare('UPDATE notes SET text = ?');
    const before = unlinkedFiles();
    let opened: string[] = [];
    db.transaction(() => {
      // A step's pattern: a write, then a group (a savepoint) that changes about 100 pages, past SQLite's
      // 64 KiB spill size for the pages a savepoint keeps.
      insert.run('first');
      db.transaction(() => rewrite.run('y'.repeat(1500)))();
      opened = [...unlinkedFiles()].filter((file) => !before.has(file));
    })();
    expect(opened).toEqual([]);
    db.close();
  });

  it('runs migrations and VACUUM with temporary files on disk, and the rest in memory', () => {
    const store = Store.open(tempFile());
    // Migrations saw the default (0); a migration's table-valued pragma records what it ran with.
    const seen = openDatabase(tempFile(), [
      {
        version: 1,
        name: 'records temp_store',
        sql: 'CREATE TABLE seen AS SELECT temp_store FROM pragma_temp_store',
      },
    ]);
    expect(seen.prepare('SELECT temp_store FROM seen').pluck().get()).toBe(0);
    expect(seen.pragma('temp_store', { simple: true })).toBe(2);
    seen.close();
    store.data.compact();
    expect(store.db.pragma('temp_store', { simple: true })).toBe(2);
    store.close();
  });

  it('zeroes deleted rows, so their text is not left in the file', () => {
    const file = tempFile();
    const db = openDatabase(file, []);
    const text = `deleted-row-marker-${'x'.repeat(200)}`;
    db.exec('CREATE TABLE notes (text TEXT)');
    db.prepare('INSERT INTO notes (text) VALUES (?), (?)').run(text, 'kept');
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.prepare('DELETE FROM notes WHERE text = ?').run(text);
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.close();
    const bytes = readFileSync(file);
    expect(bytes.includes('kept')).toBe(true);
    expect(bytes.includes('deleted-row-marker')).toBe(false);
  });

  it('applies only new migrations, in order, and refuses a database from a newer Deputy', () => {
    const db = openDatabase(':memory:', []);
    migrate(db, [{ version: 1, name: 'one', sql: 'CREATE TABLE a (x INTEGER)' }]);
    migrate(db, [
      { version: 1, name: 'one', sql: 'CREATE TABLE a (x INTEGER)' },
      { version: 2, name: 'two', sql: 'CREATE TABLE b (y INTEGER)' },
    ]);
    expect(db.pragma('user_version', { simple: true })).toBe(2);
    expect(() => migrate(db, [{ version: 1, name: 'one', sql: '' }])).toThrow(/newer than this Deputy/);
  });

  it('rolls a failing migration back entirely', () => {
    const db = openDatabase(':memory:', []);
    expect(() =>
      migrate(db, [
        { version: 1, name: 'bad', sql: 'CREATE TABLE a (x INTEGER); CREATE TABLE a (y INTEGER);' },
      ]),
    ).toThrow();
    expect(db.pragma('user_version', { simple: true })).toBe(0);
    expect(db.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'a'").pluck().get()).toBe(0);
  });

  it('enforces foreign keys: a run needs its thread', () => {
    const store = new Store(openDatabase(':memory:'));
    expect(() => store.runs.create({ id: 'r', threadId: 'missing', model: 'm', prompt: 'p' }, 'now')).toThrow(
      /FOREIGN KEY/,
    );
  });

  it('pages threads newest first with a cursor', () => {
    const store = new Store(openDatabase(':memory:'));
    for (let index = 0; index < 5; index += 1) {
      store.threads.create(`t${index}`, `Thread ${index}`, `2026-01-0${index + 1}T00:00:00.000Z`);
    }
    const first = store.threads.list(2);
    expect(first.threads.map((t) => t.id)).toEqual(['t4', 't3']);
    const second = store.threads.list(2, first.nextBefore ?? undefined);
    expect(second.threads.map((t) => t.id)).toEqual(['t2', 't1']);
    const third = store.threads.list(2, second.nextBefore ?? undefined);
    expect(third).toEqual({ threads: [expect.objectContaining({ id: 't0' })], nextBefore: null });
    expect(() => store.threads.list(2, 'garbage')).toThrow(/cursor/);
  });

  it('keeps data across reopening the file', () => {
    const file = tempFile();
    const store = Store.open(file);
    store.threads.create('t', 'Kept', '2026-01-01T00:00:00.000Z');
    store.close();
    const reopened = Store.open(file);
    expect(reopened.threads.get('t')?.title).toBe('Kept');
    reopened.close();
  });

  it('filters tasks by status and words, treating % and _ literally', () => {
    const store = new Store(openDatabase(':memory:'));
    store.tasks.add({ id: 'a', description: 'Buy milk', due: null, notes: null }, 'n');
    store.tasks.add({ id: 'b', description: 'Pay 100% of rent', due: '2026-01-01', notes: null }, 'n');
    store.tasks.add({ id: 'c', description: 'Call mum', due: null, notes: 'about milk_run' }, 'n');
    store.tasks.complete('c', 'n');
    expect(store.tasks.list({ status: 'open', limit: 10 }).map((t) => t.id)).toEqual(['b', 'a']);
    expect(store.tasks.list({ status: 'all', query: 'milk', limit: 10 }).map((t) => t.id)).toEqual([
      'a',
      'c',
    ]);
    expect(store.tasks.list({ status: 'all', query: '100%', limit: 10 }).map((t) => t.id)).toEqual(['b']);
    expect(store.tasks.list({ status: 'all', query: 'k_r', limit: 10 }).map((t) => t.id)).toEqual(['c']);
    expect(store.tasks.list({ status: 'done', limit: 10 }).map((t) => t.id)).toEqual(['c']);
  });

  it('lets an approval leave pending exactly once', () => {
    const store = new Store(openDatabase(':memory:'));
    store.threads.create('t', 'T', 'n');
    store.runs.create({ id: 'r', threadId: 't', model: 'm', prompt: 'p' }, 'n');
    store.actions.create(
      {
        id: 'a',
        runId: 'r',
        threadId: 't',
        callId: 'c',
        tool: 'add_task',
        args: {},
        state: 'awaiting_confirmation',
      },
      'n',
    );
    store.approvals.create({
      id: 'p',
      runId: 'r',
      threadId: 't',
      actionId: 'a',
      tool: 'add_task',
      args: {},
      fingerprint: 'f',
      status: 'pending',
      level: 'confirm',
      reason: 'r',
      rule: 'x',
      risk: 'low',
      preview: { title: 't', fields: [] },
      previewText: 't',
      intent: null,
      reasoning: null,
      confidence: null,
      assumptions: [],
      alwaysAllowScopes: [],
      createdAt: 'n',
      expiresAt: 'z',
      decidedAt: null,
      decisionNote: null,
    });
    expect(store.approvals.claim('p', 'approved', 'n', null, 'person')).toBe(true);
    expect(store.approvals.claim('p', 'approved', 'n', null, 'person')).toBe(false);
    expect(store.approvals.claim('p', 'rejected', 'n', null, 'person')).toBe(false);
    expect(store.approvals.get('a')?.status).toBe('approved');
    expect(store.approvals.replaceArgs('p', { x: 1 }, 'g')).toBe(false);
  });
});
