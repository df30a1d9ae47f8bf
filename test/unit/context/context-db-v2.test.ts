import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURE_DATABASES, useContextFixtureCopies } from '../../support/fixture-copies';
import { mailCorpus, RecentMail } from '../../../electron/context/recent-mail';
import { SemanticIndex } from '../../../electron/context/semantic-index';

/** context.db as version 2 wrote it (frozen): one recent mail kept by the opt-in, and its vector. */
const FIXTURE = join(FIXTURE_DATABASES, 'context-v2.db');

describe('the context index format, version 2 (recent mail, opt-in)', () => {
  const openCopy = useContextFixtureCopies();

  it('still opens and reads: the kept mail by its words, and its vector', async () => {
    const before = readFileSync(FIXTURE);
    const db = openCopy('context-v2.db');
    expect(db.pragma('user_version', { simple: true })).toBe(4); // brought up to date as it opens
    const mail = new RecentMail(db);
    expect(mail.count()).toBe(1);
    expect(mail.search('boarding gate', 5)).toEqual([
      {
        id: '18c0a1',
        sender: 'Air Example <noreply@air.example>',
        subject: 'Your boarding pass',
        snippet: 'Gate 42, seat 14C. Boarding at 09:10.',
        at: '2026-11-22T18:00:00.000Z',
      },
    ]);
    const semantic = new SemanticIndex(db, mailCorpus(mail), () => null, 256);
    await semantic.load();
    const query = Float32Array.from({ length: 256 }, (_, d) => (d % 4 === 0 ? 1 : -0.25));
    expect(semantic.index.search(query, 1)[0]).toMatchObject({ ref: '18c0a1' });
    expect(readFileSync(FIXTURE).equals(before)).toBe(true);
  });
});
