import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openContextDb } from '../../../electron/context/context-db';
import { ContactsIndex, summarize, type ContactObservation } from '../../../electron/context/contacts-index';
import { parseAddressList } from '../../../electron/context/mail-addresses';
import { resolvePerson } from '../../../electron/context/person-resolution';
import { unresolvedPersonQuestion } from '../../../electron/context/intent-check';
import { knowledgeBlock } from '../../../electron/context/knowledge';
import { intentAnalysis } from '../../support/intent-analysis';
import { peopleOnlyQueryContext } from '../../support/query-context';
import { toolContext } from '../../support/tool-context';
import type { Db } from '../../../electron/store/database';

let dir: string;
let db: Db;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'deputy-context-'));
  db = openContextDb(join(dir, 'context.db'));
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const seen = (
  address: string,
  name: string,
  kind: ContactObservation['kind'],
  at = '2026-11-20T09:00:00.000Z',
  evidence = `${kind} ${address} ${at}`,
): ContactObservation => ({ address, name, kind, at, evidence });

describe('the contacts index', () => {
  it('counts what the person did apart from mere appearances, and reading the same mail twice counts once', () => {
    const index = new ContactsIndex(db);
    const refresh = [
      seen('Sarah@Example.com', 'Sarah Chen', 'sent', '2026-11-20T09:00:00.000Z'),
      seen('sarah@example.com', 'Sarah Chen', 'organised', '2026-11-24T13:00:00.000Z'),
      seen('news@shop.example', 'Shop News', 'received'),
    ];
    index.merge(summarize(refresh));
    index.merge(summarize(refresh));

    expect(index.get('sarah@example.com')).toMatchObject({
      dealtCount: 2,
      seenCount: 0,
      lastAt: '2026-11-24T13:00:00.000Z',
    });
    expect(index.isDealtWith('SARAH@example.com')).toBe(true);
    expect(index.isDealtWith('news@shop.example')).toBe(false);
    expect(index.count()).toBe(2);
  });

  it('keeps the name the person used over one a sender gave themselves', () => {
    const index = new ContactsIndex(db);
    index.merge(summarize([seen('boss@corp.example', 'Dana Boss', 'sent')]));
    index.merge(summarize([seen('boss@corp.example', 'URGENT CEO', 'received')]));
    expect(index.get('boss@corp.example')?.name).toBe('Dana Boss');
    expect(index.findByName('CEO')).toEqual([]);
  });

  it('is bounded: past its limit the least dealt-with, least recent contacts go first', () => {
    const index = new ContactsIndex(db, 3);
    index.merge(
      summarize([
        seen('a@x.example', 'A', 'sent', '2026-01-01T00:00:00.000Z'),
        seen('b@x.example', 'B', 'received', '2026-11-01T00:00:00.000Z'),
        seen('c@x.example', 'C', 'received', '2026-01-01T00:00:00.000Z'),
        seen('d@x.example', 'D', 'received', '2026-10-01T00:00:00.000Z'),
      ]),
    );
    expect(index.count()).toBe(3);
    expect(index.get('c@x.example')).toBeNull();
    expect(index.get('a@x.example')).not.toBeNull();
    expect(index.findByName('C')).toEqual([]);
  });
});

describe('resolving a name', () => {
  it('resolves one person with the evidence, and asks when two the person dealt with fit', () => {
    const index = new ContactsIndex(db);
    index.merge(
      summarize([seen('alex@company.com', 'Alex Johnson', 'sent', undefined, 'you wrote “Budget”')]),
    );
    const one = resolvePerson(index, 'Alex');
    expect(one).toMatchObject({
      status: 'resolved',
      person: {
        address: 'alex@company.com',
        name: 'Alex Johnson',
        isKnown: true,
        evidence: ['you wrote “Budget”'],
      },
    });

    index.merge(summarize([seen('alex.kim@partner.example', 'Alex Kim', 'accepted')]));
    const two = resolvePerson(index, 'alex');
    expect(two.status).toBe('ambiguous');
    expect(two.status === 'ambiguous' && two.question).toBe(
      'Which alex do you mean: Alex Johnson (alex@company.com) or Alex Kim (alex.kim@partner.example)?',
    );
  });

  it('offers someone who only appeared when no one the person dealt with has the name, marked as not known', () => {
    const index = new ContactsIndex(db);
    index.merge(summarize([seen('sarah@evil.example', 'Sarah', 'received')]));
    expect(resolvePerson(index, 'Sarah')).toMatchObject({
      status: 'resolved',
      person: { address: 'sarah@evil.example', isKnown: false },
    });
    index.merge(summarize([seen('sarah@example.com', 'Sarah Chen', 'sent')]));
    expect(resolvePerson(index, 'Sarah')).toMatchObject({
      status: 'resolved',
      person: { address: 'sarah@example.com' },
    });
    expect(resolvePerson(index, 'Zoë')).toMatchObject({ status: 'unknown' });
  });

  it('one mail contact and one Slack profile of the same full name are one person; two of either stay two', () => {
    const index = new ContactsIndex(db);
    index.merge(
      summarize([
        seen('carol@example.com', 'Carol Chen', 'sent'),
        seen('slack:@U0CAROL03', 'Carol Chen', 'slack_dm_sent'),
      ]),
    );
    expect(resolvePerson(index, 'Carol')).toMatchObject({
      status: 'resolved',
      person: { address: 'carol@example.com', slack: 'slack:@U0CAROL03', isKnown: true },
    });

    index.merge(summarize([seen('carol.chen@partner.example', 'Carol Chen', 'sent')]));
    const two = resolvePerson(index, 'Carol');
    expect(two.status).toBe('ambiguous');
    expect(two.status === 'ambiguous' && two.candidates.map((person) => person.address)).toEqual(
      expect.arrayContaining(['carol@example.com', 'carol.chen@partner.example', 'slack:@U0CAROL03']),
    );
  });
});

describe('a word of an address’s domain', () => {
  it('is no one’s name: “example” finds no one at example.com, and a name shared with a domain finds only the person', () => {
    const index = new ContactsIndex(db);
    index.merge(
      summarize([
        seen('alex@example.com', 'Alex Johnson', 'sent'),
        seen('carol@example.com', 'Carol Chen', 'sent'),
        seen('slack:@U0EXAMPLE', 'Dana Poe', 'slack_member'),
        ...Array.from({ length: 30 }, (_, n) =>
          seen(`p${String(n)}@samsung.com`, `Person ${String(n)}`, 'sent'),
        ),
        seen('sam.lee@partner.example', 'Sam Lee', 'received'),
      ]),
    );
    expect(resolvePerson(index, 'example')).toMatchObject({ status: 'unknown' });
    expect(resolvePerson(index, 'u0example')).toMatchObject({ status: 'unknown' });
    // Thirty colleagues at samsung.com, dealt with more, do not crowd out the one Sam.
    expect(resolvePerson(index, 'Sam')).toMatchObject({
      status: 'resolved',
      person: { address: 'sam.lee@partner.example' },
    });
    // The part before the @ still names its person.
    expect(resolvePerson(index, 'sam.lee')).toMatchObject({ status: 'resolved' });
  });
});

describe('someone known only from Slack', () => {
  const ana = intentAnalysis({ intent: 'send_email', entities: [{ type: 'person', value: 'Ana' }] });
  const question =
    'I know Ana Lima only from Slack, so I have no email address for them. What is Ana’s email address?';

  it('is asked about before a mail or an invitation to them, not before a Slack message', () => {
    const index = new ContactsIndex(db);
    index.merge(summarize([seen('slack:@U0ANA', 'Ana Lima', 'slack_member')]));
    expect(unresolvedPersonQuestion(index, ana, { reachesPeople: true, reachesByMail: true })).toBe(question);
    expect(unresolvedPersonQuestion(index, ana, { reachesPeople: true, reachesByMail: false })).toBeNull();
    expect(knowledgeBlock({ prompt: 'Email Ana', events: [], tasksDueSoon: [], contacts: index })).toContain(
      '- Ana: Ana Lima <slack:@U0ANA> (on Slack only; no email address known)',
    );

    // Her mail contact of the same full name gives the address: nothing to ask.
    index.merge(summarize([seen('ana.lima@example.com', 'Ana Lima', 'sent')]));
    expect(unresolvedPersonQuestion(index, ana, { reachesPeople: true, reachesByMail: true })).toBeNull();
  });

  it('query_context asks for her address when the request is a mail, and resolves her for a Slack message', async () => {
    const index = new ContactsIndex(db);
    index.merge(summarize([seen('slack:@U0ANA', 'Ana Lima', 'slack_member')]));
    const tool = peopleOnlyQueryContext(index, new Date('2026-11-23T07:00:00.000Z'));
    const context = toolContext(new Date('2026-11-23T07:00:00.000Z'));
    const byMail = await tool.execute({ type: 'person', name: 'Ana', analysis: ana }, context);
    expect(byMail.clarification).toEqual({ question });
    const said = await tool.execute(
      { type: 'person', name: 'Ana', reachBy: 'email', analysis: { ...ana, intent: 'write_to_ana' } },
      context,
    );
    expect(said.clarification).toEqual({ question });
    const bySlack = await tool.execute(
      { type: 'person', name: 'Ana', reachBy: 'slack', analysis: { ...ana, intent: 'message_ana' } },
      context,
    );
    expect(bySlack).toMatchObject({ clarification: null, people: [{ status: 'resolved' }] });
  });
});

describe('a name that only begins a longer one', () => {
  it('“Ana” is never Anabel silently: it asks “Do you mean Anabel Ruiz?”, and finds Ana Lima once she is known', () => {
    const index = new ContactsIndex(db);
    index.merge(
      summarize([
        seen('anabel@example.com', 'Anabel Ruiz', 'sent'),
        seen('analytics@example.com', 'Analytics', 'received'),
      ]),
    );
    const question = 'I found no one called Ana. Do you mean Anabel Ruiz (anabel@example.com)?';
    expect(resolvePerson(index, 'Ana')).toMatchObject({ status: 'ambiguous', question });
    expect(resolvePerson(index, 'Anabel')).toMatchObject({
      status: 'resolved',
      person: { address: 'anabel@example.com' },
    });
    // Writing to "Ana" asks; remembering something about her does not (as with a name no one has).
    const ana = intentAnalysis({ entities: [{ type: 'person', value: 'Ana' }] });
    expect(unresolvedPersonQuestion(index, ana, { reachesPeople: true, reachesByMail: true })).toBe(question);
    expect(unresolvedPersonQuestion(index, ana, { reachesPeople: false, reachesByMail: false })).toBeNull();
    const knowledge = knowledgeBlock({ prompt: 'Email Ana', events: [], tasksDueSoon: [], contacts: index });
    expect(knowledge).toContain(
      '- Ana: no one by that very name; the closest is Anabel Ruiz <anabel@example.com>; ask before using it',
    );

    index.merge(summarize([seen('ana.lima@example.com', 'Ána Lima', 'sent')]));
    for (const name of ['Ana', 'ANA', 'ána', 'Ana Lima'])
      expect(resolvePerson(index, name)).toMatchObject({
        status: 'resolved',
        person: { address: 'ana.lima@example.com' },
      });
  });

  it('a sender of the very name is offered beside a known person whose name only begins so', () => {
    const index = new ContactsIndex(db);
    index.merge(
      summarize([
        seen('anabel@example.com', 'Anabel Ruiz', 'sent'),
        seen('ana@shop.example', 'Ana', 'received'),
      ]),
    );
    const both = resolvePerson(index, 'Ana');
    expect(both.status === 'ambiguous' && both.candidates.map((person) => person.address)).toEqual([
      'anabel@example.com',
      'ana@shop.example',
    ]);
  });
});

describe('mail address lists', () => {
  it('reads quoted names with commas, bare addresses, and drops what is not an address', () => {
    expect(
      parseAddressList('"Chen, Sarah" <Sarah@Example.com>, bob.smith@y.org, undisclosed-recipients:;'),
    ).toEqual([
      { name: 'Chen, Sarah', address: 'sarah@example.com' },
      { name: 'bob smith', address: 'bob.smith@y.org' },
    ]);
  });
});
