import { openDatabase } from '../../electron/store/database';
import { Store } from '../../electron/store/store';

/** A store in memory with one conversation ('t') and one run of it ('r'), made at `now`. */
export function storeWithRun(now: string): Store {
  const store = new Store(openDatabase(':memory:'));
  store.threads.create('t', 'T', now);
  store.runs.create({ id: 'r', threadId: 't', model: 'm', prompt: 'p' }, now);
  return store;
}

/**
 * Counts the statements of one kind from now on, with a temporary trigger: `on` is the trigger's event and table,
 * as in "UPDATE OF status ON runs". Answers a reader of the count.
 */
export function countStatements(store: Store, name: string, on: string): () => number {
  store.db.exec(`
    CREATE TEMP TABLE ${name} (n INTEGER NOT NULL);
    INSERT INTO ${name} VALUES (0);
    CREATE TEMP TRIGGER count_${name} AFTER ${on} BEGIN UPDATE ${name} SET n = n + 1; END;
  `);
  const select = store.db.prepare<[], { n: number }>(`SELECT n FROM ${name}`);
  return () => select.get()?.n ?? 0;
}
