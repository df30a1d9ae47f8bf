import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { GroupSavepoints } from '../../../electron/store/group-savepoints';
import { Store } from '../../../electron/store/store';

/** Counts the savepoints better-sqlite3 and the store begin, by watching every statement's `run`. */
type Runnable = { run: (...args: unknown[]) => unknown };
const statementProto = Object.getPrototypeOf(new Database(':memory:').prepare('SELECT 1')) as Runnable;
const originalRun = statementProto.run;
let savepointsBegun = 0;

beforeEach(() => {
  savepointsBegun = 0;
  statementProto.run = function counted(this: { source: string }, ...args: unknown[]) {
    if (/^SAVEPOINT/i.test(this.source)) savepointsBegun += 1;
    return originalRun.apply(this, args);
  };
});
afterEach(() => {
  statementProto.run = originalRun;
});

function openStore(): Store {
  const store = Store.open(join(mkdtempSync(join(tmpdir(), 'deputy-groups-')), 'deputy.db'));
  store.db.exec('CREATE TABLE notes (text TEXT NOT NULL)');
  return store;
}

const notes = (store: Store): string[] =>
  (store.db.prepare('SELECT text FROM notes ORDER BY rowid').all() as { text: string }[]).map(
    (row) => row.text,
  );

const failing = (): never => {
  throw new Error('the group failed');
};

describe('the savepoints of groups inside a step', () => {
  it('begins none for groups that only read or keep rows in memory, and their undo still runs', async () => {
    const store = openStore();
    const read = store.db.prepare('SELECT count(*) FROM notes');
    let kept = 0;
    await store.writes.step(async () => {
      store.transaction(() => {
        read.get();
        kept += 1;
        store.writes.onRollback(() => (kept -= 1));
      });
      expect(() =>
        store.transaction(() => {
          kept += 1;
          store.writes.onRollback(() => (kept -= 1));
          failing();
        }),
      ).toThrow('the group failed');
    });
    expect(savepointsBegun).toBe(0);
    expect(kept).toBe(1);
  });

  it('rolls back exactly the writes of a group that fails, however deep, and keeps the others', async () => {
    const store = openStore();
    const insert = store.db.prepare('INSERT INTO notes (text) VALUES (?)');
    await store.writes.step(async () => {
      store.transaction(() => {
        // The outer group has not written when the inner one begins: both savepoints begin at the inner write.
        expect(() =>
          store.transaction(() => {
            insert.run('inner, then failed');
            failing();
          }),
        ).toThrow('the group failed');
        insert.run('outer');
      });
      expect(() =>
        store.transaction(() => {
          store.transaction(() => insert.run('inside a group that failed after it'));
          failing();
        }),
      ).toThrow('the group failed');
      insert.run('plain');
    });
    expect(notes(store)).toEqual(['outer', 'plain']);
    expect(savepointsBegun).toBe(4);
  });

  it('nests better-sqlite3 transactions and exec inside a group that had not written yet', async () => {
    const store = openStore();
    const insert = store.db.prepare('INSERT INTO notes (text) VALUES (?)');
    const inOwnTransaction = store.db.transaction((text: string) => insert.run(text));
    await store.writes.step(async () => {
      expect(() =>
        store.transaction(() => {
          inOwnTransaction('nested, then its group failed');
          failing();
        }),
      ).toThrow('the group failed');
      store.transaction(() => inOwnTransaction('nested'));
      expect(() =>
        store.transaction(() => {
          store.db.exec("INSERT INTO notes (text) VALUES ('exec, then its group failed')");
          failing();
        }),
      ).toThrow('the group failed');
      store.transaction(() => store.db.exec("INSERT INTO notes (text) VALUES ('exec')"));
    });
    expect(notes(store)).toEqual(['nested', 'exec']);
  });

  it('writes deferred to the commit each land or fail alone, with no savepoint for one that has nothing left', async () => {
    const store = openStore();
    const insert = store.db.prepare('INSERT INTO notes (text) VALUES (?)');
    await store.writes.step(async () => {
      store.writes.atCommit('first', () => insert.run('first'));
      store.writes.atCommit('nothing left', () => {});
      store.writes.atCommit('half', () => {
        insert.run('half, then failed');
        failing();
      });
      store.writes.atCommit('last', () => insert.run('last'));
      expect(() => store.writes.boundary()).toThrow('the group failed');
    });
    expect(notes(store)).toEqual(['first', 'last']);
    expect(savepointsBegun).toBe(3);
  });

  it('refuses a group that returns a promise, leaving nothing of it', async () => {
    const store = openStore();
    const insert = store.db.prepare('INSERT INTO notes (text) VALUES (?)');
    await store.writes.step(async () => {
      expect(() =>
        store.transaction(() => {
          insert.run('before the promise');
          return Promise.resolve();
        }),
      ).toThrow('cannot return a promise');
    });
    expect(notes(store)).toEqual([]);
  });

  it('is one per connection', () => {
    const store = openStore();
    expect(() => new GroupSavepoints(store.db)).toThrow('already has a unit of work');
  });
});
