import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURE_DATABASES, useContextFixtureCopies } from '../../support/fixture-copies';
import { ContactsIndex } from '../../../electron/context/contacts-index';
import { resolvePerson } from '../../../electron/context/person-resolution';

/** context.db as version 3 wrote it (frozen): Robert Hale and Anabel Ruiz, searched by name as version 3 did. */
const FIXTURE = join(FIXTURE_DATABASES, 'context-v3.db');

describe('the context index format, version 3 (names searched before the @ only)', () => {
  const openCopy = useContextFixtureCopies();

  it('still opens and reads: its contacts by name, by another form of a name, and no changes left to index', () => {
    const before = readFileSync(FIXTURE);
    const db = openCopy('context-v3.db');
    expect(db.pragma('user_version', { simple: true })).toBe(4); // brought up to date as it opens
    const contacts = new ContactsIndex(db);
    expect(contacts.count()).toBe(2);
    expect(contacts.isDealtWith('robert.hale@example.com')).toBe(true);
    expect(resolvePerson(contacts, 'Robert Hale')).toMatchObject({
      status: 'resolved',
      person: {
        address: 'robert.hale@example.com',
        evidence: ['you wrote to them: “Invoice 114” (2026-11-26)'],
      },
    });
    // Rows stored by version 3 are found by the forms of a name that came later, and still asked about.
    expect(resolvePerson(contacts, 'Bob')).toMatchObject({
      status: 'ambiguous',
      candidates: [{ address: 'robert.hale@example.com' }],
    });
    expect(resolvePerson(contacts, 'Ana')).toMatchObject({
      status: 'ambiguous',
      candidates: [{ address: 'anabel@example.com' }],
    });
    expect(resolvePerson(contacts, 'example')).toMatchObject({ status: 'unknown' });
    // Version 4's record of what is not indexed by meaning yet starts empty: nothing was changed since.
    expect(db.prepare('SELECT count(*) AS n FROM unindexed_changes').get()).toEqual({ n: 0 });
    expect(readFileSync(FIXTURE).equals(before)).toBe(true);
  });
});
