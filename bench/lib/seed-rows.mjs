/** The seeded documents of the scale benchmark (see seed.mjs): ULID-like ids, creation times and fields. */
import { generateOrders, random } from './data.mjs';

// Crockford's base32, the alphabet of ULIDs.
const BASE32 = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
// Seeded documents were "created" one millisecond apart from here on, so their ids and `_createdAt` increase
// together, and all of them precede anything the server writes today.
const EPOCH = Date.UTC(2020, 0, 1);

/**
 * The id of the n-th seeded document (n ≥ 1): a ULID like the server's own, 10 characters of creation time then
 * 16 of randomness (here a function of n, so that the benchmark can name any seeded id without storing them).
 */
export function seedId(n) {
  let time = EPOCH + n;
  let head = '';
  for (let i = 0; i < 10; i++, time = Math.floor(time / 32)) head = BASE32[time % 32] + head;
  const next = random(n);
  let tail = '';
  for (let i = 0; i < 16; i++) tail += BASE32[Math.floor(next() * 32)];
  return head + tail;
}

/** Rows of seeded documents 1..`count`: `{ id, data, createdAt }`, with `data` the fields' JSON text as stored. */
export function* seedRows(count) {
  // Every size gets the same leading documents: the 10,000 are the first 10,000 of the million.
  let n = 0;
  for (const fields of generateOrders(count)) {
    n++;
    yield { id: seedId(n), data: JSON.stringify(fields), createdAt: new Date(EPOCH + n).toISOString() };
  }
}
