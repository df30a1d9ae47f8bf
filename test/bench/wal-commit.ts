import Database from 'better-sqlite3';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { percentile } from './stats';

/**
 * `npx tsx test/bench/wal-commit.ts`: what a WAL commit of 25 pages (a durable step's size) costs when the log
 * grows without starting over, against one that starts over every 40 commits (a checkpoint on the same
 * connection between two commits, as SQLite's own). This is why the main connection folds a long log in
 * while the WAL keeper runs (wal-keeper-client.ts, FOLD_ON_MAIN_AFTER_FRAMES).
 */
const PAGES = 25;
const COMMITS = 1_000;

function commitTimes(foldEvery: number | null, blocks: number): void {
  const dir = mkdtempSync(join(tmpdir(), 'deputy-wal-commit-'));
  const file = join(dir, 'bench.db');
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('wal_autocheckpoint = 0');
  // One table a page: each commit writes one row to each, so it writes PAGES pages.
  const inserts = Array.from({ length: PAGES }, (_, table) => {
    db.exec(`CREATE TABLE t${table} (id INTEGER PRIMARY KEY, text TEXT NOT NULL)`);
    return db.prepare(`INSERT INTO t${table} (text) VALUES (?)`);
  });
  const begin = db.prepare('BEGIN IMMEDIATE');
  const commit = db.prepare('COMMIT');
  const fold = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
  const label = foldEvery === null ? 'growing log' : `log folded in every ${foldEvery} commits`;
  for (let block = 0; block < blocks; block += 1) {
    const times: number[] = [];
    for (let index = 0; index < COMMITS; index += 1) {
      begin.run();
      for (const insert of inserts) insert.run('x'.repeat(40));
      const began = process.hrtime.bigint();
      commit.run();
      times.push(Number(process.hrtime.bigint() - began) / 1_000);
      if (foldEvery !== null && index % foldEvery === foldEvery - 1) fold.run();
    }
    times.sort((a, b) => a - b);
    const walMb = statSync(`${file}-wal`).size / 1e6;
    console.log(
      `${label}, commits ${block * COMMITS + 1}–${(block + 1) * COMMITS}: median ${percentile(times, 50).toFixed(1)} µs, ` +
        `p95 ${percentile(times, 95).toFixed(1)} µs; log file ${walMb.toFixed(0)} MB`,
    );
  }
  db.close();
  rmSync(dir, { recursive: true, force: true });
}

commitTimes(null, 4);
commitTimes(40, 4);
