import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useContextFixtureCopies } from '../../support/fixture-copies';
import { openOrRebuildContextDb } from '../../../electron/context/context-db';
import { ContactsIndex } from '../../../electron/context/contacts-index';
import { resolvePerson } from '../../../electron/context/person-resolution';
import { memoryCorpus } from '../../../electron/context/corpora';
import { SemanticIndex } from '../../../electron/context/semantic-index';
import { UpcomingEvents } from '../../../electron/context/upcoming-events';
import { Store } from '../../../electron/store/store';

/** context.db as version 1 wrote it (frozen): Sarah Chen, a look-alike sender, the Q1 review, one memory vector. */
const FIXTURE = 'context-v1.db';

describe('the context index format, version 1', () => {
  const openCopy = useContextFixtureCopies();

  it('still opens and reads: contacts, who counts as known, coming events and vectors', async () => {
    const db = openCopy(FIXTURE);
    expect(db.pragma('user_version', { simple: true })).toBe(4); // brought up to date as it opens
    const contacts = new ContactsIndex(db);
    expect(contacts.count()).toBe(2);
    expect(contacts.isDealtWith('sarah@example.com')).toBe(true);
    expect(contacts.isDealtWith('sarah.chen@evil.example')).toBe(false);
    expect(resolvePerson(contacts, 'Sarah')).toMatchObject({
      status: 'resolved',
      person: { address: 'sarah@example.com', evidence: ['you wrote to them: “Q1 planning” (2026-11-20)'] },
    });
    // Stored before version 3 with the whole address searchable: a domain's word is no longer a name.
    expect(resolvePerson(contacts, 'example')).toMatchObject({ status: 'unknown' });
    expect(resolvePerson(contacts, 'Sarah Chen')).toMatchObject({ status: 'resolved' });
    expect(new UpcomingEvents(db).next(new Date('2026-11-23T07:00:00Z'), 5, 'UTC')).toEqual([
      {
        id: 'e1',
        title: 'Q1 Planning Review',
        start: '2026-11-24T14:00:00+01:00',
        attendees: ['sarah@example.com'],
      },
    ]);
    const store = Store.open(':memory:');
    const semantic = new SemanticIndex(db, memoryCorpus(store.memories), () => null, 256);
    await semantic.load();
    const query = Float32Array.from({ length: 256 }, (_, d) => (d % 3 === 0 ? 1 : -0.5));
    const [hit] = semantic.index.search(query, 1);
    expect(hit?.ref).toBe('m1');
    expect(hit?.score).toBeGreaterThan(0.98);
    store.close();
  });

  it('a file that cannot be opened is started afresh, and says so, instead of keeping Deputy from starting', () => {
    const dir = mkdtempSync(join(tmpdir(), 'deputy-context-bad-'));
    const file = join(dir, 'context.db');
    writeFileSync(file, 'this is not a database, it is '.repeat(200));
    const errors: string[] = [];
    const db = openOrRebuildContextDb(file, (message) => errors.push(message));
    try {
      expect(errors).toEqual([expect.stringContaining('could not be opened; it is rebuilt')]);
      expect(db.pragma('user_version', { simple: true })).toBe(4);
      expect(new ContactsIndex(db).count()).toBe(0);
    } finally {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
