import { describe, expect, it } from 'vitest';
import { fuse } from '../../../electron/context/semantic-index';
import { normalize } from '../../../electron/context/vector-codes';
import { VectorIndex } from '../../../electron/context/vector-index';
import { createRng } from '../../chaos/prng';

const DIMS = 256;

function exactTop(vectors: Float32Array[], query: Float32Array, k: number): number[] {
  const unitQuery = normalize(query);
  return vectors
    .map((vector, index) => {
      const unit = normalize(vector);
      let dot = 0;
      for (let d = 0; d < DIMS; d += 1) dot += (unit[d] ?? 0) * (unitQuery[d] ?? 0);
      return { index, dot };
    })
    .sort((a, b) => b.dot - a.dot)
    .slice(0, k)
    .map((hit) => hit.index);
}

describe('the vector index', () => {
  const rng = createRng(7);
  const next = (): number => rng.next() - 0.5;
  // Clustered data, as embeddings are: 50 topics, 4,000 vectors around them.
  const topics = Array.from({ length: 50 }, () => Float32Array.from({ length: DIMS }, next));
  const vectors = Array.from({ length: 4_000 }, (_, index) => {
    const topic = topics[index % topics.length] as Float32Array;
    return Float32Array.from({ length: DIMS }, (_, d) => (topic[d] ?? 0) + 0.6 * next());
  });
  const index = new VectorIndex(DIMS);
  vectors.forEach((vector, position) => index.set(`v${position}`, vector));

  it('finds nearly all of the exact ten nearest (binary first pass, int8 rescoring)', () => {
    let found = 0;
    const queries = 20;
    for (let q = 0; q < queries; q += 1) {
      const query = vectors[q * 37] as Float32Array;
      const exact = new Set(exactTop(vectors, query, 10).map((position) => `v${position}`));
      found += index.search(query, 10).filter((hit) => exact.has(hit.ref)).length;
    }
    expect(found / (queries * 10)).toBeGreaterThanOrEqual(0.9);
  });

  it('scores by cosine, forgets deleted vectors, and replaces a changed one', () => {
    const query = vectors[5] as Float32Array;
    const [best] = index.search(query, 1);
    expect(best).toMatchObject({ ref: 'v5' });
    expect(best?.score).toBeGreaterThan(0.98);
    index.delete('v5');
    expect(index.search(query, 5).map((hit) => hit.ref)).not.toContain('v5');
    index.set('v5', query);
    expect(index.search(query, 1)[0]?.ref).toBe('v5');
    expect(index.size).toBe(4_000);
  });
});

describe('reciprocal rank fusion', () => {
  it('puts what both lists rank well first, and keeps what only one found (ties in the order of the lists)', () => {
    expect(fuse(['a', 'b', 'c'], ['c', 'd']).map((hit) => hit.ref)).toEqual(['c', 'a', 'b', 'd']);
  });
});
