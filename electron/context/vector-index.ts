import { norm, normalize, popcount, signBits, toInt8 } from './vector-codes';

export interface VectorHit {
  ref: string;
  /** Cosine similarity, from the int8 rescoring: within about 0.01 of the exact value. */
  score: number;
}

const GROW = 1_024;

/**
 * The vectors of one kind, in memory, for search. SQLite holds them durably; this holds their compact codes.
 * Search: Hamming distance over sign bits for every vector, then int8 dot products for the closest few.
 */
export class VectorIndex {
  private readonly words: number;
  private refs: string[] = [];
  private slotOf = new Map<string, number>();
  private bits: Uint32Array;
  private bytes: Int8Array;
  private live: Uint8Array;

  constructor(readonly dims: number) {
    if (dims % 32 !== 0) throw new Error(`dims must be a multiple of 32, got ${dims}`);
    this.words = dims / 32;
    this.bits = new Uint32Array(GROW * this.words);
    this.bytes = new Int8Array(GROW * dims);
    this.live = new Uint8Array(GROW);
  }

  get size(): number {
    return this.slotOf.size;
  }

  /** Makes room for `slots` vectors at once, so loading many never copies the arrays as they grow. */
  reserve(slots: number): void {
    this.ensure(slots);
  }

  /**
   * Takes over codes computed elsewhere (the index worker), slot by slot in `refs`' order, with the map from
   * ref to slot already built. Only into an empty index: what is adopted replaces nothing.
   */
  adopt(refs: string[], slotOf: Map<string, number>, bits: Uint32Array, bytes: Int8Array): void {
    if (this.slotOf.size > 0) throw new Error('vectors are adopted only into an empty index');
    if (bits.length !== refs.length * this.words || bytes.length !== refs.length * this.dims)
      throw new Error('the adopted codes do not match their refs');
    this.refs = refs;
    this.slotOf = slotOf;
    this.bits = bits;
    this.bytes = bytes;
    this.live = new Uint8Array(refs.length).fill(1);
  }

  has(ref: string): boolean {
    return this.slotOf.has(ref);
  }

  set(ref: string, vector: Float32Array): void {
    if (vector.length !== this.dims)
      throw new Error(`expected ${this.dims} dimensions, got ${vector.length}`);
    let slot = this.slotOf.get(ref);
    if (slot === undefined) {
      slot = this.refs.length;
      this.refs.push(ref);
      this.slotOf.set(ref, slot);
      this.ensure(slot + 1);
    }
    // Signs do not change with length; the bytes are scaled to unit length as they are written.
    signBits(vector, this.words, this.bits, slot * this.words);
    toInt8(vector, this.dims, this.bytes, slot * this.dims, 1 / norm(vector));
    this.live[slot] = 1;
  }

  delete(ref: string): void {
    const slot = this.slotOf.get(ref);
    if (slot === undefined) return;
    this.live[slot] = 0;
    this.slotOf.delete(ref);
  }

  clear(): void {
    this.refs = [];
    this.slotOf = new Map();
    this.live.fill(0);
  }

  /** The `k` nearest by cosine; `shortlist` is how many pass the bit comparison to be rescored. */
  search(query: Float32Array, k: number, shortlist = Math.max(64, k * 8)): VectorHit[] {
    const count = this.refs.length;
    if (count === 0) return [];
    const unit = normalize(query);
    const queryBits = new Uint32Array(this.words);
    signBits(unit, this.words, queryBits, 0);
    const distances = new Uint16Array(count);
    const histogram = new Uint32Array(this.dims + 2);
    for (let slot = 0; slot < count; slot += 1) {
      if (this.live[slot] === 0) {
        distances[slot] = this.dims + 1;
        continue;
      }
      let distance = 0;
      const offset = slot * this.words;
      for (let word = 0; word < this.words; word += 1)
        distance += popcount((this.bits[offset + word] ?? 0) ^ (queryBits[word] ?? 0));
      distances[slot] = distance;
      histogram[distance] = (histogram[distance] ?? 0) + 1;
    }
    // The distance under which `shortlist` vectors fall, found by counting instead of sorting 100,000 numbers.
    let cutoff = 0;
    for (let seen = 0; cutoff <= this.dims && seen < shortlist; cutoff += 1) seen += histogram[cutoff] ?? 0;
    const queryBytes = new Int8Array(this.dims);
    toInt8(unit, this.dims, queryBytes, 0);
    const hits: VectorHit[] = [];
    for (let slot = 0; slot < count; slot += 1) {
      if ((distances[slot] ?? Infinity) >= cutoff) continue;
      let dot = 0;
      const offset = slot * this.dims;
      for (let index = 0; index < this.dims; index += 1)
        dot += (this.bytes[offset + index] ?? 0) * (queryBytes[index] ?? 0);
      hits.push({ ref: this.refs[slot] ?? '', score: dot / (127 * 127) });
    }
    return hits.sort((a, b) => b.score - a.score).slice(0, k);
  }

  private ensure(slots: number): void {
    if (slots <= this.live.length) return;
    const capacity = Math.max(slots, this.live.length * 2);
    const bits = new Uint32Array(capacity * this.words);
    bits.set(this.bits);
    const bytes = new Int8Array(capacity * this.dims);
    bytes.set(this.bytes);
    const live = new Uint8Array(capacity);
    live.set(this.live);
    this.bits = bits;
    this.bytes = bytes;
    this.live = live;
  }
}
