import { describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Store } from '../../../electron/store/store';

function openStores(): { store: Store; other: Database.Database } {
  const file = join(mkdtempSync(join(tmpdir(), 'deputy-unit-')), 'deputy.db');
  const store = Store.open(file);
  store.db.exec('CREATE TABLE notes (text TEXT NOT NULL)');
  // A second connection sees only what is committed: what a crash would leave.
  return { store, other: new Database(file, { readonly: true }) };
}

const committed = (other: Database.Database): string[] =>
  (other.prepare('SELECT text FROM notes ORDER BY rowid').all() as { text: string }[]).map((row) => row.text);

describe('the step unit of work', () => {
  it('commits a step once, at its boundary, with every group and plain statement of the step in it', async () => {
    const { store, other } = openStores();
    const insert = store.db.prepare('INSERT INTO notes (text) VALUES (?)');
    const seen: string[][] = [];
    await store.writes.step(async () => {
      store.transaction(() => insert.run('turn'));
      insert.run('plain');
      await Promise.resolve();
      store.transaction(() => insert.run('call'));
      seen.push(committed(other));
      store.writes.boundary();
      seen.push(committed(other));
      store.transaction(() => insert.run('next'));
      seen.push(committed(other));
    });
    expect(seen).toEqual([[], ['turn', 'plain', 'call'], ['turn', 'plain', 'call']]);
    expect(committed(other)).toEqual(['turn', 'plain', 'call', 'next']);
  });

  it('keeps the unit open while a step waits its turn, and commits it when the loop turns for a real wait', async () => {
    const { store, other } = openStores();
    const insert = store.db.prepare('INSERT INTO notes (text) VALUES (?)');
    const loopTurns = (count: number): Promise<void> =>
      Array.from({ length: count }).reduce<Promise<void>>(
        (previous) => previous.then(() => new Promise((resolve) => setImmediate(resolve))),
        Promise.resolve(),
      );
    const seen: string[][] = [];
    await store.writes.step(async () => {
      store.transaction(() => insert.run('tool'));
      await store.writes.waitTurn(loopTurns(3));
      seen.push(committed(other));
      store.writes.boundary();
      seen.push(committed(other));
      store.transaction(() => insert.run('answer'));
      await loopTurns(1);
      seen.push(committed(other));
    });
    expect(seen).toEqual([[], ['tool'], ['tool', 'answer']]);
  });

  it('makes a write from outside a step durable before it returns, even while a step has its unit open', async () => {
    const { store, other } = openStores();
    const insert = store.db.prepare('INSERT INTO notes (text) VALUES (?)');
    let release = (): void => {};
    const step = store.writes.step(async () => {
      store.transaction(() => insert.run('step'));
      await new Promise<void>((resolve) => (release = resolve));
    });
    await Promise.resolve();
    store.transaction(() => insert.run('outside'));
    expect(committed(other)).toEqual(['step', 'outside']);
    release();
    await step;
  });

  it('rolls back only the group that threw, and keeps the rest of the step', async () => {
    const { store, other } = openStores();
    const insert = store.db.prepare('INSERT INTO notes (text) VALUES (?)');
    await store.writes.step(async () => {
      store.transaction(() => insert.run('kept'));
      expect(() =>
        store.transaction(() => {
          insert.run('dropped');
          throw new Error('no');
        }),
      ).toThrow('no');
    });
    expect(committed(other)).toEqual(['kept']);
  });

  it('writes a deferred value once, as it is at the commit, and commits on its own when the event loop turns', async () => {
    const { store, other } = openStores();
    const insert = store.db.prepare('INSERT INTO notes (text) VALUES (?)');
    const state = { value: 'first' };
    let writes = 0;
    const save = (): void => {
      writes += 1;
      insert.run(state.value);
    };
    let waited: string[] = [];
    await store.writes.step(async () => {
      store.writes.atCommit('state', save);
      state.value = 'second';
      store.writes.atCommit('state', save);
      expect(committed(other)).toEqual([]);
      await new Promise((resolve) => setImmediate(resolve));
      waited = committed(other);
    });
    expect(waited).toEqual(['second']);
    expect(writes).toBe(1);
  });
});
