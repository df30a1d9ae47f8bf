import { describe, expect, it } from 'vitest';
import { otherNameForms } from '../../../electron/context/nicknames';

describe('the table of short given names', () => {
  it('leads from a short form to its formal names', () => {
    expect(otherNameForms('Bob')).toEqual(['robert']);
    expect(otherNameForms('Rob')).toEqual(['robert']);
    expect(otherNameForms('Robbie')).toEqual(['robert']);
    expect(otherNameForms('Liam')).toEqual(['william']);
    expect(otherNameForms('Beth')).toEqual(['elizabeth']);
    expect(otherNameForms('Tony')).toEqual(['anthony']);
    expect([...otherNameForms('Kate')].sort()).toEqual(['catherine', 'katherine']);
    expect([...otherNameForms('Alex')].sort()).toEqual(['alexander', 'alexandra']);
    expect([...otherNameForms('Pat')].sort()).toEqual(['patricia', 'patrick']);
  });

  it('leads from a formal name to its short forms, and not from one short form to another', () => {
    expect([...otherNameForms('Robert')].sort()).toEqual(['bob', 'bobby', 'rob', 'robbie']);
    expect(otherNameForms('William')).toEqual(expect.arrayContaining(['bill', 'will', 'liam']));
    expect(otherNameForms('Elizabeth')).toEqual(expect.arrayContaining(['liz', 'beth', 'eliza']));
    expect(otherNameForms('Bob')).not.toContain('rob');
  });

  it('compares names without case or accents, as the rest of name matching does', () => {
    for (const name of ['BOB', 'bob', 'Bób', 'bÖb']) expect(otherNameForms(name)).toEqual(['robert']);
    expect(otherNameForms('RÓBERT')).toContain('bob');
  });

  it('knows nothing of a name it does not hold', () => {
    expect(otherNameForms('Anabel')).toEqual([]);
    expect(otherNameForms('Zoë')).toEqual([]);
    expect(otherNameForms('')).toEqual([]);
  });

  it('holds only plain lower-case words, and every link goes both ways', () => {
    const names = ['bob', 'robert', 'kate', 'catherine', 'william', 'liz', 'mike', 'jim', 'sam', 'chris'];
    for (const name of names) {
      expect(otherNameForms(name).length).toBeGreaterThan(0);
      for (const other of otherNameForms(name)) {
        expect(other).toMatch(/^[a-z]+$/);
        expect(otherNameForms(other)).toContain(name);
      }
    }
  });
});
