import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Store } from '../../../electron/store/store';

/**
 * A frozen database as Deputy left it at schema version 4 (made once with migrations 1–4 and never rewritten):
 * two memories saved before memories had provenance (a fact, and an instruction an injected mail had slipped
 * in), and a task. It must still open, and its memories must come out as of unknown origin, unconfirmed.
 */
const FIXTURE = join(import.meta.dirname, '..', '..', 'fixtures', 'databases', 'deputy-v4.db');

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function openCopy(): Store {
  const dir = mkdtempSync(join(tmpdir(), 'deputy-v6-'));
  dirs.push(dir);
  const file = join(dir, 'deputy.db');
  copyFileSync(FIXTURE, file);
  return Store.open(file);
}

describe('migration 6 (memory provenance) on a frozen version 4 database', () => {
  it('loads, keeps every memory and task, and marks the old memories legacy and unconfirmed', () => {
    const before = readFileSync(FIXTURE);
    const store = openCopy();
    try {
      expect(store.db.pragma('user_version', { simple: true })).toBeGreaterThanOrEqual(6);
      const { memories } = store.memories.page(10);
      expect(
        memories.map(({ id, origin, source, confirmedAt }) => ({ id, origin, source, confirmedAt })),
      ).toEqual([
        { id: 'm-bcc', origin: 'legacy', source: null, confirmedAt: null },
        { id: 'm-manager', origin: 'legacy', source: null, confirmedAt: null },
      ]);
      expect(store.memories.search('manager', 5).map((hit) => hit.id)).toEqual(['m-manager']);
      expect(store.tasks.list({ status: 'all', limit: 10 }).map((task) => task.description)).toEqual([
        'File the expense report',
      ]);
    } finally {
      store.close();
    }
    // The fixture itself is only ever copied.
    expect(readFileSync(FIXTURE).equals(before)).toBe(true);
  });

  it('confirms a memory once the person edits it, and records where a new one came from', () => {
    const store = openCopy();
    try {
      const edited = store.memories.update(
        'm-manager',
        'Ana Lopez is my manager.',
        '2026-11-23T08:00:00.000Z',
      );
      expect(edited).toMatchObject({ origin: 'legacy', confirmedAt: '2026-11-23T08:00:00.000Z' });
      const derived = store.memories.add(
        {
          id: 'm-new',
          text: 'The finance contact is Carl.',
          origin: 'source',
          source: 'a mail from carl@x.io (“Hello”)',
          isConfirmed: true,
        },
        '2026-11-23T09:00:00.000Z',
      );
      expect(derived).toMatchObject({
        origin: 'source',
        source: 'a mail from carl@x.io (“Hello”)',
        confirmedAt: '2026-11-23T09:00:00.000Z',
      });
    } finally {
      store.close();
    }
  });
});
