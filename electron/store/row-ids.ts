import { randomFillSync } from 'node:crypto';

/**
 * Ids for rows of the tables that only grow (runs, threads, the ledger, the audit trail, checkpoints): UUID
 * version 7 (RFC 9562 §5.7), which starts with the time in milliseconds. Each of those tables has a unique
 * index on its id; a random id lands on a random leaf of that index, so once the index outgrows SQLite's page
 * cache every insert reads a page from disk and later writes it back, and a half-full leaf splits. An id that
 * sorts after the last one lands on the same last leaf every time.
 *
 * Within one millisecond the 12 bits after the version are a counter (RFC 9562 §6.2, method 1), started at a
 * random value below 2048 so a burst has room to count up; if it runs out, the id borrows the next
 * millisecond. The ids one process makes therefore always sort in the order they were made, even when the
 * clock steps back. The last 62 bits are random.
 */
export function newRowId(): string {
  const at = nextRandomBytes();
  const now = Date.now();
  if (now > lastMs) {
    lastMs = now;
    counter = ((byteAt(at) << 8) | byteAt(at + 1)) & 0x7ff;
    timePrefix = prefixOf(lastMs);
  } else if (counter < 0xfff) {
    counter += 1;
  } else {
    lastMs += 1;
    counter = 0;
    timePrefix = prefixOf(lastMs);
  }
  return (
    `${timePrefix}${HEX_DIGITS[counter >> 8] ?? '0'}${hexOf(counter)}-` +
    `${hexOf((byteAt(at + 2) & 0x3f) | 0x80)}${hexOf(byteAt(at + 3))}-` +
    `${hexOf(byteAt(at + 4))}${hexOf(byteAt(at + 5))}${hexOf(byteAt(at + 6))}` +
    `${hexOf(byteAt(at + 7))}${hexOf(byteAt(at + 8))}${hexOf(byteAt(at + 9))}`
  );
}

/** Random bytes come from a pool filled 128 ids at a time, as node:crypto's own randomUUID does. */
const BYTES_PER_ID = 10;
const pool = Buffer.alloc(BYTES_PER_ID * 128);
let poolAt = pool.length;
let lastMs = -1;
let counter = 0;
/** The id's first 15 characters, which change only with the millisecond: the time and the version. */
let timePrefix = '';

const HEX_DIGITS = '0123456789abcdef';
const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

function prefixOf(ms: number): string {
  const time = ms.toString(16).padStart(12, '0');
  return `${time.slice(0, 8)}-${time.slice(8)}-7`;
}

const byteAt = (index: number): number => pool[index] ?? 0;
const hexOf = (byte: number): string => HEX[byte & 0xff] ?? '00';

function nextRandomBytes(): number {
  if (poolAt === pool.length) {
    randomFillSync(pool);
    poolAt = 0;
  }
  const at = poolAt;
  poolAt += BYTES_PER_ID;
  return at;
}
