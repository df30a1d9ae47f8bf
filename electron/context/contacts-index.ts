import type { Db } from '../store/database';

/**
 * How the person came across someone. Only four are things the person did: wrote to them (mail, or a Slack
 * direct message), organised a meeting with them, accepted their invitation. The others are mere appearances
 * that anyone can cause by sending a mail, a direct message or an invitation, or by joining the workspace.
 */
export type ContactKind =
  | 'sent'
  | 'organised'
  | 'accepted'
  | 'slack_dm_sent'
  | 'received'
  | 'invited'
  | 'slack_member'
  | 'slack_dm_received';

const DEALT_KINDS: ReadonlySet<ContactKind> = new Set(['sent', 'organised', 'accepted', 'slack_dm_sent']);

export const isDealtKind = (kind: ContactKind): boolean => DEALT_KINDS.has(kind);

export interface ContactObservation {
  /** A mail address, or `slack:@U…` for a Slack user. */
  address: string;
  name: string;
  kind: ContactKind;
  /** ISO time of the mail, the event or the observation. */
  at: string;
  /** What it was, in the person's words: "you wrote “Q1 planning”", "event “Review” you organised". */
  evidence: string;
}

export interface Contact {
  address: string;
  name: string;
  /** How many times the person dealt with them (wrote, organised, accepted). */
  dealtCount: number;
  seenCount: number;
  lastAt: string;
  /** The most recent reasons this contact is in the index, newest first. */
  evidence: string[];
}

interface ContactRow {
  address: string;
  name: string;
  dealt_count: number;
  seen_count: number;
  last_at: string;
  evidence: string;
}

const EVIDENCE_KEPT = 4;
/** The index is bounded: past this many contacts the least dealt-with and least recent are dropped. */
export const DEFAULT_MAX_CONTACTS = 20_000;

const toContact = (row: ContactRow): Contact => ({
  address: row.address,
  name: row.name,
  dealtCount: row.dealt_count,
  seenCount: row.seen_count,
  lastAt: row.last_at,
  evidence: JSON.parse(row.evidence) as string[],
});

/** One contact per address from a refresh's observations: counts, the latest time, the newest evidence. */
export function summarize(observations: readonly ContactObservation[]): Contact[] {
  const byAddress = new Map<string, Contact>();
  const newestFirst = [...observations].sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0));
  for (const observation of newestFirst) {
    const address = normalizeAddress(observation.address);
    if (!address) continue;
    const isDealt = isDealtKind(observation.kind);
    const contact = byAddress.get(address) ?? {
      address,
      name: '',
      dealtCount: 0,
      seenCount: 0,
      lastAt: observation.at,
      evidence: [],
    };
    // The name the person used when dealing with them wins over one an appearance gave.
    const name = observation.name.trim();
    if (name && (!contact.name || (isDealt && contact.dealtCount === 0))) contact.name = name;
    if (isDealt) contact.dealtCount += 1;
    else contact.seenCount += 1;
    if (contact.evidence.length < EVIDENCE_KEPT && !contact.evidence.includes(observation.evidence))
      contact.evidence.push(observation.evidence);
    byAddress.set(address, contact);
  }
  return [...byAddress.values()];
}

/** Mail addresses compare case-blind; Slack ids are upper-case as Slack writes them, and stay so. */
export const normalizeAddress = (address: string): string => {
  const trimmed = address.trim();
  return trimmed.startsWith('slack:') ? trimmed : trimmed.toLowerCase();
};

/**
 * The part of an address that may name its person: a mail address before the @ ("sarah.chen"), never its
 * domain (everyone at example.com is not called "example"); nothing of a Slack user id.
 */
export const addressName = (address: string): string =>
  address.startsWith('slack:') ? '' : (address.split('@')[0] ?? '');

/** The local contacts index: who the person deals with, how often and how recently, with the evidence. */
export class ContactsIndex {
  private readonly selectOne;
  private readonly insert;
  private readonly update;
  private readonly insertFts;
  private readonly deleteFts;
  private readonly matchName;
  private readonly countAll;
  private readonly selectOverflow;
  private readonly deleteOne;
  /** Kept in step with the table, so bounding it costs no count(*) scan per batch. */
  private size: number;
  private readonly db: Db;
  /** The most contacts kept; the least dealt-with go first. */
  readonly maxContacts: number;

  // Plain fields, not parameter properties: the index worker loads this file with Node's type stripping.
  constructor(db: Db, maxContacts = DEFAULT_MAX_CONTACTS) {
    this.db = db;
    this.maxContacts = maxContacts;
    this.selectOne = db.prepare<[string], ContactRow & { id: number }>(
      'SELECT * FROM contacts WHERE address = ?',
    );
    this.insert = db.prepare(
      `INSERT INTO contacts (address, name, dealt_count, seen_count, last_at, evidence)
       VALUES (@address, @name, @dealt, @seen, @at, @evidence)`,
    );
    this.update = db.prepare(
      `UPDATE contacts SET name = @name, dealt_count = @dealt, seen_count = @seen, last_at = @at,
       evidence = @evidence WHERE id = @id`,
    );
    this.insertFts = db.prepare('INSERT INTO contacts_fts (rowid, name, address) VALUES (?, ?, ?)');
    this.deleteFts = db.prepare('DELETE FROM contacts_fts WHERE rowid = ?');
    this.matchName = db.prepare<[string, number], ContactRow>(
      `SELECT c.* FROM contacts_fts f JOIN contacts c ON c.id = f.rowid WHERE contacts_fts MATCH ?
       ORDER BY c.dealt_count > 0 DESC, c.dealt_count DESC, c.last_at DESC LIMIT ?`,
    );
    this.countAll = db.prepare<[], { n: number }>('SELECT count(*) AS n FROM contacts');
    this.selectOverflow = db.prepare<[number], { id: number }>(
      'SELECT id FROM contacts ORDER BY dealt_count > 0, dealt_count, seen_count, last_at LIMIT ?',
    );
    this.deleteOne = db.prepare('DELETE FROM contacts WHERE id = ?');
    this.size = this.countAll.get()?.n ?? 0;
  }

  /**
   * Merges what one refresh found, in one transaction; the caller keeps batches small so none blocks for long.
   * Counts are the refresh's own (never added to the stored ones), so reading the same mail twice counts once,
   * and someone the person dealt with stays known when older mail leaves the window.
   */
  merge(contacts: readonly Contact[]): void {
    this.db.transaction(() => {
      for (const contact of contacts) this.mergeOne(contact);
      this.trim();
    })();
  }

  private mergeOne(contact: Contact): void {
    const address = normalizeAddress(contact.address);
    if (!address) return;
    const existing = this.selectOne.get(address);
    if (!existing) {
      const info = this.insert.run({
        address,
        name: contact.name,
        dealt: contact.dealtCount,
        seen: contact.seenCount,
        at: contact.lastAt,
        evidence: JSON.stringify(contact.evidence.slice(0, EVIDENCE_KEPT)),
      });
      this.insertFts.run(info.lastInsertRowid, contact.name, addressName(address));
      this.size += 1;
      return;
    }
    const evidence = [...new Set([...contact.evidence, ...(JSON.parse(existing.evidence) as string[])])];
    // A name from a mere appearance never replaces one the person dealt with.
    const name =
      contact.name && (contact.dealtCount > 0 || existing.dealt_count === 0) ? contact.name : existing.name;
    this.update.run({
      id: existing.id,
      name,
      dealt: Math.max(existing.dealt_count, contact.dealtCount),
      seen: Math.max(existing.seen_count, contact.seenCount),
      at: contact.lastAt > existing.last_at ? contact.lastAt : existing.last_at,
      evidence: JSON.stringify(evidence.slice(0, EVIDENCE_KEPT)),
    });
    if (name !== existing.name) {
      this.deleteFts.run(existing.id);
      this.insertFts.run(existing.id, name, addressName(address));
    }
  }

  private trim(): void {
    const overflow = this.size - this.maxContacts;
    if (overflow <= 0) return;
    for (const { id } of this.selectOverflow.all(overflow)) {
      this.deleteOne.run(id);
      this.deleteFts.run(id);
      this.size -= 1;
    }
  }

  get(address: string): Contact | null {
    const row = this.selectOne.get(normalizeAddress(address));
    return row ? toContact(row) : null;
  }

  /** Someone the person dealt with: wrote to, organised or accepted a meeting with. */
  isDealtWith(address: string): boolean {
    return (this.selectOne.get(normalizeAddress(address))?.dealt_count ?? 0) > 0;
  }

  /**
   * Contacts whose name or address before the @ has a word starting with each word of `name`, or, given
   * `otherForms`, one of that word's other forms as a whole word ("Bob" → robert): the most dealt-with first.
   * Either way it is one lookup in the name index.
   */
  findByName(
    name: string,
    limit = 10,
    otherForms: (word: string) => readonly string[] = () => [],
  ): Contact[] {
    const words = name.match(/[\p{L}\p{N}]+/gu) ?? [];
    if (words.length === 0) return [];
    // Only words of letters and digits reach the query: nothing can break out of its quotes.
    const isWord = (form: string): boolean => /^[\p{L}\p{N}]+$/u.test(form);
    const query = words
      .map((word) =>
        [
          `"${word}"*`,
          ...otherForms(word)
            .filter(isWord)
            .map((form) => `"${form}"`),
        ].join(' OR '),
      )
      .map((either) => `(${either})`)
      .join(' AND ');
    return this.matchName.all(query, limit).map(toContact);
  }

  count(): number {
    return this.size;
  }

  /** Counts the table again: another connection (the index worker) merged into it. */
  recount(): void {
    this.size = this.countAll.get()?.n ?? 0;
  }

  clear(): void {
    this.db.exec('DELETE FROM contacts; DELETE FROM contacts_fts;');
    this.size = 0;
  }
}
