import { describe, expect, it } from 'vitest';
import type { ThreadSummary } from '../../../shared/contract';
import { listedTitle, namedThreads } from '../../../renderer/src/features/chat/thread-names';

const thread = (id: string, title: string, updatedAt: string): ThreadSummary => ({
  id,
  title,
  createdAt: updatedAt,
  updatedAt,
  lastRunStatus: 'completed',
});
const minute = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const second = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

describe('the words of a conversation’s row in the list', () => {
  it('leaves a row no other reads like as it was: its title, its time to the minute', () => {
    const [only] = namedThreads([thread('a', 'Plan my week', '2026-03-02T09:15:07.000Z')]);
    expect(only?.name).toEqual({
      title: 'Plan my week',
      when: minute('2026-03-02T09:15:07.000Z'),
      label: '“Plan my week”',
    });
    expect(namedThreads([thread('b', '', '2026-03-02T09:15:07.000Z')])[0]?.name.title).toBe(
      'Untitled conversation',
    );
  });

  it('tells two of the same title and minute apart by their seconds, to the eye and to a screen reader', () => {
    const named = namedThreads([
      thread('new', 'Plan my week', '2026-03-02T09:15:41.000Z'),
      thread('old', 'Plan my week', '2026-03-02T09:15:07.000Z'),
      thread('other', 'Plan my day', '2026-03-02T09:15:20.000Z'),
    ]);
    expect(named.map(({ thread: { id } }) => id)).toEqual(['new', 'old', 'other']);
    const [newer, older, other] = named.map(({ name }) => name);
    expect(newer).toEqual({
      title: 'Plan my week',
      when: second('2026-03-02T09:15:41.000Z'),
      label: `“Plan my week” (${second('2026-03-02T09:15:41.000Z')})`,
    });
    expect(older?.when).toBe(second('2026-03-02T09:15:07.000Z'));
    expect(older?.label).not.toBe(newer?.label);
    // Another title in the same minute reads apart already.
    expect(other).toEqual({
      title: 'Plan my day',
      when: minute('2026-03-02T09:15:20.000Z'),
      label: '“Plan my day”',
    });
  });

  it('keeps the minute for two of the same title in different minutes, and names the time to a screen reader', () => {
    const [newer, older] = namedThreads([
      thread('new', 'Plan my week', '2026-03-02T10:15:07.000Z'),
      thread('old', 'Plan my week', '2026-03-02T09:15:07.000Z'),
    ]).map(({ name }) => name);
    expect(newer?.when).toBe(minute('2026-03-02T10:15:07.000Z'));
    expect(newer?.label).toBe(`“Plan my week” (${minute('2026-03-02T10:15:07.000Z')})`);
    expect(older?.label).toBe(`“Plan my week” (${minute('2026-03-02T09:15:07.000Z')})`);
  });

  it('numbers the newer of those alike to the second, the oldest keeping its title', () => {
    const at = '2026-03-02T09:15:07.000Z';
    const names = namedThreads([
      thread('c', 'Triage', at),
      thread('b', 'Triage', at),
      thread('a', 'Triage', at),
    ]).map(({ name }) => name.title);
    expect(names).toEqual(['Triage (3)', 'Triage (2)', 'Triage']);
  });

  it('gives the quick prompt’s header the title the list’s row shows, numbered alike', () => {
    const at = '2026-03-02T09:15:07.000Z';
    const threads = [thread('new', 'Task helper', at), thread('old', 'Task helper', at)];
    expect(listedTitle(threads, 'new')).toBe('Task helper (2)');
    expect(listedTitle(threads, 'old')).toBe('Task helper');
    expect(listedTitle([thread('c', '', at)], 'c')).toBe('Untitled conversation');
    expect(listedTitle(threads, 'gone')).toBeNull();
    expect(listedTitle(threads, null)).toBeNull();
  });
});
