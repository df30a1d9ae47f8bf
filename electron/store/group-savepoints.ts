import type { Db } from './database';

/** Statements that start or end a transaction or a savepoint: SQLite counts them as read-only, but they nest. */
const TRANSACTION_CONTROL = /^\s*(?:BEGIN|COMMIT|END|ROLLBACK|SAVEPOINT|RELEASE)\b/i;

const HOOKED = Symbol('deputy.groupSavepoints');

type Hooked = Db & { [HOOKED]?: GroupSavepoints };
type Runner = (...args: unknown[]) => unknown;

/**
 * The savepoints of groups that run inside an open transaction (a step's unit of work), each begun only when
 * its group first writes. Most groups in a step only gather rows in memory for the commit (a status and its
 * journal row, a read-only call's ledger row), and a savepoint that holds no write changes nothing whether it
 * is released or rolled back to: about seven of a read-only step's twelve were of that kind.
 *
 * A write is seen before it runs: every statement prepared on the connection after this is made, other than a
 * plain read, begins the savepoints still owed (outermost first), and so do `exec`, `pragma` and a
 * `transaction` of better-sqlite3's (whose own savepoint must nest inside ours). The store makes this first,
 * before any repo prepares a statement.
 */
export class GroupSavepoints {
  private readonly savepoint;
  private readonly release;
  private readonly rollbackTo;
  /** For each group open now, innermost last: whether its savepoint was begun. */
  private readonly begun: boolean[] = [];
  /** How many of the innermost groups have not begun theirs: they are always the innermost ones. */
  private owed = 0;

  constructor(private readonly db: Db) {
    this.savepoint = db.prepare('SAVEPOINT deputy_group');
    this.release = db.prepare('RELEASE deputy_group');
    this.rollbackTo = db.prepare('ROLLBACK TO deputy_group');
    hookWrites(db, this);
  }

  /** Runs `work` as one group inside the open transaction: its writes land whole or not at all. */
  run<T>(work: () => T): T {
    this.begun.push(false);
    this.owed += 1;
    let isDone = false;
    try {
      const result = work();
      if (result && typeof (result as { then?: unknown }).then === 'function')
        throw new TypeError('A group of writes cannot return a promise');
      isDone = true;
      return result;
    } finally {
      this.end(isDone);
    }
  }

  /** Begins the savepoints still owed, before a statement that may write runs. */
  beforeWrite(): void {
    if (this.owed === 0) return;
    for (let index = this.begun.length - this.owed; index < this.begun.length; index += 1) {
      this.savepoint.run();
      this.begun[index] = true;
      this.owed -= 1;
    }
  }

  private end(isDone: boolean): void {
    const wasBegun = this.begun.pop();
    if (!wasBegun) {
      this.owed -= 1;
      return;
    }
    if (isDone) {
      this.release.run();
    } else if (this.db.inTransaction) {
      // As better-sqlite3's own savepoints do: back to where the group began, then out of it.
      this.rollbackTo.run();
      this.release.run();
    }
  }
}

/** Makes every later statement on `db` that may write (or nest a transaction) begin the owed savepoints first. */
function hookWrites(db: Db, groups: GroupSavepoints): void {
  const hooked = db as Hooked;
  if (hooked[HOOKED]) throw new Error('This connection already has a unit of work');
  hooked[HOOKED] = groups;
  // The class's own methods, looked up at each call (as a plain call would): only the write check is added.
  const own = Object.getPrototypeOf(db) as Db;
  Object.assign(db, {
    prepare(source: string) {
      const statement = own.prepare.call(db, source);
      if (statement.readonly && !TRANSACTION_CONTROL.test(source)) return statement;
      const statementClass = Object.getPrototypeOf(statement) as Record<string, Runner>;
      for (const method of ['run', 'get', 'all', 'iterate'] as const) {
        (statement as unknown as Record<string, Runner>)[method] = function beforeWrite(...args: unknown[]) {
          groups.beforeWrite();
          return statementClass[method]?.apply(statement, args);
        };
      }
      return statement;
    },
    exec(source: string) {
      groups.beforeWrite();
      return own.exec.call(db, source);
    },
    pragma(source: string, options?: { simple?: boolean }) {
      groups.beforeWrite();
      return own.pragma.call(db, source, options);
    },
    transaction(work: Runner) {
      const wrapped = own.transaction.call(db, work) as Runner;
      return (...args: unknown[]) => {
        groups.beforeWrite();
        return wrapped(...args);
      };
    },
  });
}
