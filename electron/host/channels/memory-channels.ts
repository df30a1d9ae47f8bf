import { type Memory, notFound } from '../../../shared/contract';
import type { Store } from '../../store/store';
import type { HandlersFor } from './handlers';

/** The memory domain: the person's list of what Deputy remembers, searched, edited and forgotten. */
export function memoryChannels(
  store: Store,
  now: () => Date,
): HandlersFor<'memory.list' | 'memory.update' | 'memory.delete'> {
  return {
    'memory.list': (input) =>
      input.query
        ? { memories: store.memories.search(input.query, input.limit).map(memoryView), nextCursor: null }
        : store.memories.page(input.limit, input.cursor),
    'memory.update': (input) => {
      const memory = store.memories.update(input.id, input.text, now().toISOString());
      if (!memory) throw missing(input.id);
      return { memory };
    },
    'memory.delete': (input) => {
      if (!store.memories.delete(input.id)) throw missing(input.id);
      return { deleted: input.id };
    },
  };
}

const missing = (id: string) => notFound('memory', id);

/** Only the contract's fields: a search row carries its rank and snippet columns too. */
const memoryView = ({ id, text, origin, source, confirmedAt, createdAt, updatedAt }: Memory): Memory => ({
  id,
  text,
  origin,
  source,
  confirmedAt,
  createdAt,
  updatedAt,
});
