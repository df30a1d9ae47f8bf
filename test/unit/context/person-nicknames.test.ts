import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openContextDb } from '../../../electron/context/context-db';
import { ContactsIndex, summarize, type ContactObservation } from '../../../electron/context/contacts-index';
import { unresolvedPersonQuestion } from '../../../electron/context/intent-check';
import { knowledgeBlock } from '../../../electron/context/knowledge';
import { resolvePerson } from '../../../electron/context/person-resolution';
import type { Db } from '../../../electron/store/database';
import { intentAnalysis } from '../../support/intent-analysis';
import { peopleOnlyQueryContext } from '../../support/query-context';
import { planOf, recordPrepared, recordPreparing } from '../../support/statement-plans';
import { toolContext } from '../../support/tool-context';

let db: Db;
let index: ContactsIndex;
beforeEach(() => {
  db = openContextDb(':memory:');
  index = new ContactsIndex(db);
});
afterEach(() => db.close());

const contact = (
  address: string,
  name: string,
  kind: ContactObservation['kind'] = 'sent',
  at = '2026-11-20T09:00:00.000Z',
): ContactObservation => ({ address, name, kind, at, evidence: `${kind} ${address}` });

const robertHale = contact('robert@example.com', 'Robert Hale');
const bobQuestion = 'I found no one called Bob. Do you mean Robert Hale (robert@example.com)?';

describe('a short form of a given name', () => {
  it('“Bob” is never Robert Hale silently: it asks, in any case and with accents, and the other way round', () => {
    index.merge(summarize([robertHale, contact('roberta@example.com', 'Roberta Diaz')]));
    expect(resolvePerson(index, 'Bob')).toEqual({
      status: 'ambiguous',
      name: 'Bob',
      isGuess: true,
      question: bobQuestion,
      candidates: [
        {
          name: 'Robert Hale',
          address: 'robert@example.com',
          isKnown: true,
          evidence: ['sent robert@example.com'],
        },
      ],
    });
    for (const name of ['BOB', 'bób', 'Bobby', 'Robbie'])
      expect(resolvePerson(index, name)).toMatchObject({
        status: 'ambiguous',
        isGuess: true,
        question: `I found no one called ${name}. Do you mean Robert Hale (robert@example.com)?`,
      });
    expect(resolvePerson(index, 'Bob Hale')).toMatchObject({
      status: 'ambiguous',
      question: 'I found no one called Bob Hale. Do you mean Robert Hale (robert@example.com)?',
    });
    expect(resolvePerson(index, 'Bob Smith')).toMatchObject({ status: 'unknown' });

    index.merge(summarize([contact('liz@example.com', 'Liz Okafor')]));
    expect(resolvePerson(index, 'Elizabeth')).toMatchObject({
      status: 'ambiguous',
      question: 'I found no one called Elizabeth. Do you mean Liz Okafor (liz@example.com)?',
    });
  });

  it('the very name wins: someone the person dealt with called Bob is Bob, however many Roberts there are', () => {
    index.merge(
      summarize([
        contact('bob@example.com', 'Bob Stone', 'sent', '2026-01-01T00:00:00.000Z'),
        // Thirty Roberts, each written to more often and more recently than Bob.
        ...Array.from({ length: 30 }, (_, n) =>
          [1, 2].map((day) =>
            contact(
              `robert${String(n)}@example.com`,
              `Robert ${String(n)}`,
              'sent',
              `2026-11-0${String(day)}T00:00:00.000Z`,
            ),
          ),
        ).flat(),
      ]),
    );
    expect(resolvePerson(index, 'Bob')).toMatchObject({
      status: 'resolved',
      person: { address: 'bob@example.com', name: 'Bob Stone' },
    });
    expect(resolvePerson(index, 'Robert 7')).toMatchObject({
      status: 'resolved',
      person: { address: 'robert7@example.com' },
    });

    // Someone of the very name who only wrote to the person is offered beside the Robert they wrote to, first.
    index.clear();
    index.merge(summarize([robertHale, contact('bob.stone@partner.example', 'Bob Stone', 'received')]));
    expect(resolvePerson(index, 'Bob')).toMatchObject({
      status: 'ambiguous',
      isGuess: false,
      question:
        'Which Bob do you mean: Bob Stone (bob.stone@partner.example) or Robert Hale (robert@example.com)?',
    });
  });

  it('two people a short form could be are asked about as two, never chosen between', () => {
    index.merge(
      summarize([
        contact('katherine@example.com', 'Katherine Wu', 'sent', '2026-11-21T09:00:00.000Z'),
        contact('catherine@example.com', 'Catherine Ito', 'accepted'),
      ]),
    );
    const question =
      'I found no one called Kate. Do you mean Katherine Wu (katherine@example.com) or Catherine Ito (catherine@example.com)?';
    expect(resolvePerson(index, 'Kate')).toMatchObject({ status: 'ambiguous', isGuess: true, question });
    // Writing to Kate asks; remembering something about her does not, as with a name no one has.
    const kate = intentAnalysis({ intent: 'send_email', entities: [{ type: 'person', value: 'Kate' }] });
    expect(unresolvedPersonQuestion(index, kate, { reachesPeople: true, reachesByMail: true })).toBe(
      question,
    );
    expect(unresolvedPersonQuestion(index, kate, { reachesPeople: false, reachesByMail: false })).toBeNull();
    expect(knowledgeBlock({ prompt: 'Email Kate', events: [], tasksDueSoon: [], contacts: index })).toContain(
      '- Kate: no one by that very name; the closest are Katherine Wu <katherine@example.com>, Catherine Ito <catherine@example.com>; ask which, if any',
    );
  });

  it('no match stays no match, and a form of the name makes no one known', () => {
    index.merge(summarize([contact('sarah@example.com', 'Sarah Chen')]));
    expect(resolvePerson(index, 'Bob')).toMatchObject({ status: 'unknown' });

    index.merge(summarize([contact('robert@shop.example', 'Robert Vance', 'received')]));
    expect(resolvePerson(index, 'Bob')).toMatchObject({
      status: 'ambiguous',
      candidates: [{ address: 'robert@shop.example', isKnown: false }],
    });
    expect(index.isDealtWith('robert@shop.example')).toBe(false);
  });
});

describe('finding a name by its other forms', () => {
  it('stays one lookup in the name index: no statement of its own, no read of the contacts table whole', () => {
    const opened = recordPrepared(() => new ContactsIndex(db));
    const byName = opened.sources.filter((sql) => sql.includes('MATCH'));
    expect(byName).toHaveLength(1);
    const plan = planOf(db, byName[0] ?? '');
    expect(plan).toContain('SEARCH c USING INTEGER PRIMARY KEY (rowid=?)');
    expect(plan.some((step) => /^SCAN f VIRTUAL TABLE INDEX \d+:M/.test(step))).toBe(true);
    expect(plan.some((step) => /^SCAN c\b/.test(step))).toBe(false);

    opened.value.merge(summarize([robertHale]));
    const resolving = recordPreparing();
    try {
      expect(resolvePerson(opened.value, 'Bob')).toMatchObject({ status: 'ambiguous' });
    } finally {
      resolving.stop();
    }
    expect(resolving.statements).toEqual([]);
  });
});

describe('query_context, asked for Bob', () => {
  it('gives the model the question to end the run with, and Robert Hale only as a candidate', async () => {
    index.merge(summarize([robertHale]));
    const tool = peopleOnlyQueryContext(index, new Date('2026-11-23T07:00:00.000Z'));
    const bob = intentAnalysis({ intent: 'send_email', entities: [{ type: 'person', value: 'Bob' }] });
    const output = await tool.execute(
      { type: 'person', name: 'Bob', analysis: bob },
      toolContext(new Date('2026-11-23T07:00:00.000Z')),
    );
    expect(output.clarification).toEqual({ question: bobQuestion });
    expect(tool.clarification?.(output)).toBe(bobQuestion);
    expect(output.people).toEqual([
      {
        name: 'Bob',
        status: 'ambiguous',
        question: bobQuestion,
        candidates: [expect.objectContaining({ name: 'Robert Hale', address: 'robert@example.com' })],
      },
    ]);
    expect(output.results).toEqual([]);
  });
});
