import type { AuditChainOutput } from '../../shared/contract';
import { AuditInbox } from './audit-inbox';
import { contentHash, GENESIS_HASH, linkHash, type AssumptionRow, type AuditRow } from './audit-rows';
import type { Db } from './database';

interface LinkRow {
  seq: number;
  entry_id: string;
  content_hash: string;
  prev_hash: string;
  hash: string;
  at: string;
}

/** Links per batch: a link costs one hash, about 2 µs. */
const BATCH = 2_000;
/** Entries per batch: an entry costs reading its row and hashing its content, about 20 µs. */
const ENTRY_BATCH = 250;
const yieldToOthers = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Walks the chain and the entries and names the first thing that does not match: a link whose hash or whose
 * previous hash is wrong (a link edited, inserted or removed), an entry whose content no longer hashes to its
 * latest link (an entry edited behind the app's back), or a link whose entry is gone (an entry deleted). It
 * works in batches and yields between them, so a check of a million entries never blocks other work for long.
 * The entries a step held in the inbox are filed first, so each link has its entry to check.
 */
export async function verifyAuditChain(db: Db): Promise<AuditChainOutput> {
  const inbox = new AuditInbox(db);
  inbox.file();
  const linksAfter = db.prepare<[number, number], LinkRow>(
    'SELECT * FROM audit_chain WHERE seq > ? ORDER BY seq LIMIT ?',
  );
  let links = 0;
  let prev = GENESIS_HASH;
  let after = 0;
  /** The last link of each batch: the look for a link whose entry is gone goes by the same batches. */
  const batchEnds: number[] = [];
  for (;;) {
    const batch = linksAfter.all(after, BATCH);
    for (const link of batch) {
      links += 1;
      if (link.prev_hash !== prev)
        return broken(link.entry_id, link.seq, 'The link does not follow the one before it.', links);
      if (linkHash(prev, link.entry_id, link.content_hash, link.at) !== link.hash)
        return broken(link.entry_id, link.seq, 'The link was changed after it was written.', links);
      prev = link.hash;
      after = link.seq;
    }
    if (batch.length > 0) batchEnds.push(after);
    if (batch.length < BATCH) break;
    await yieldToOthers();
  }

  const entriesAfter = db.prepare<
    [number, number],
    AuditRow & { link_entry: string | null; link_content: string | null }
  >(
    `SELECT e.*, c.entry_id AS link_entry, c.content_hash AS link_content
     FROM audit_entries e LEFT JOIN audit_chain c ON c.seq = e.chain_seq
     WHERE e.seq > ? ORDER BY e.seq LIMIT ?`,
  );
  const assumptionsOf = db.prepare<[string], AssumptionRow>(
    `SELECT * FROM audit_assumptions WHERE entry_id IN (SELECT value FROM json_each(?)) ORDER BY entry_id, position`,
  );
  let entries = 0;
  after = 0;
  for (;;) {
    const batch = entriesAfter.all(after, ENTRY_BATCH);
    const assumed = new Map<string, AssumptionRow[]>();
    for (const row of assumptionsOf.all(JSON.stringify(batch.map((entry) => entry.id)))) {
      assumed.set(row.entry_id, [...(assumed.get(row.entry_id) ?? []), row]);
    }
    for (const found of batch) {
      entries += 1;
      const { link_entry: linkEntry, link_content: linkContent, ...row } = found;
      if (linkEntry !== row.id)
        return broken(row.id, row.chain_seq, 'The entry has no link in the chain.', links, entries);
      if (contentHash(row, assumed.get(row.id) ?? []) !== linkContent)
        return broken(row.id, row.chain_seq, 'The entry was changed behind the app’s back.', links, entries);
      after = row.seq;
    }
    if (batch.length < ENTRY_BATCH) break;
    await yieldToOthers();
  }

  // A link whose entry is gone, looked for a batch of links at a time too: in one statement, a million
  // look-ups held the main thread for as long as the whole walk above. The last range is open, so a link
  // written since the first walk is looked at too.
  const orphanBetween = db.prepare<[number, number], { seq: number; entry_id: string }>(
    `SELECT c.seq, c.entry_id FROM audit_chain c LEFT JOIN audit_entries e ON e.id = c.entry_id
     WHERE c.seq > ? AND c.seq <= ? AND e.id IS NULL ORDER BY c.seq LIMIT 1`,
  );
  let from = 0;
  for (const end of [...batchEnds, Number.MAX_SAFE_INTEGER]) {
    // A step may have held an entry while the check yielded: its link is written, its row is in the inbox.
    // Filed in the same turn as the look, it is found where it belongs.
    inbox.file();
    const orphan = orphanBetween.get(from, end);
    from = end;
    if (orphan)
      return broken(
        orphan.entry_id,
        orphan.seq,
        'The entry was deleted behind the app’s back.',
        links,
        entries,
      );
    await yieldToOthers();
  }
  return { ok: true, links, entries, mismatch: null };
}

function broken(
  entryId: string | null,
  link: number | null,
  reason: string,
  links: number,
  entries = 0,
): AuditChainOutput {
  return { ok: false, links, entries, mismatch: { entryId, link, reason } };
}
