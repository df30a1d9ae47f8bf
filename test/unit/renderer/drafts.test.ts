import { describe, expect, it } from 'vitest';
import { draftShelf } from '../../../renderer/src/features/chat/use-draft';

function memoryStorage() {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
  };
}

describe('the drafts shelf', () => {
  it('keeps one draft per conversation, a new one’s apart, and forgets one emptied', () => {
    const storage = memoryStorage();
    const shelf = draftShelf(storage);
    shelf.write('thread-a', 'Reply to Sam about');
    shelf.write(null, 'Plan my week');
    expect(shelf.read('thread-a')).toBe('Reply to Sam about');
    expect(shelf.read(null)).toBe('Plan my week');
    expect(shelf.read('thread-b')).toBe('');
    shelf.write('thread-a', '  \n');
    expect(shelf.read('thread-a')).toBe('');
    expect([...storage.items.keys()]).toEqual(['deputy.draft.new']);
  });

  it('keeps going without storage, or with storage that throws (full, or turned off)', () => {
    const throwing = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
      removeItem: () => {
        throw new Error('SecurityError');
      },
    };
    for (const shelf of [draftShelf(null), draftShelf(throwing)]) {
      expect(() => shelf.write('thread-a', 'words')).not.toThrow();
      expect(shelf.read('thread-a')).toBe('');
    }
  });
});
