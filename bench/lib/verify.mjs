/** Checks through the server's own API that a seeded collection is what the scale benchmark claims it is. */
import { seedId } from './seed.mjs';

async function getJson(url, headers) {
  const response = await fetch(url, { headers });
  if (response.status !== 200) throw new Error(`seed check: GET ${url} answered ${response.status}`);
  return response.json();
}

/**
 * Throws unless `GET ?limit=1` reports `size` as `total`, the newest-first page starts with the document inserted
 * over HTTP (`lastId`) then the seeded ones from the newest down (ids and `_createdAt` agree), and a seeded id
 * reads back.
 */
export async function verifySeeded({ url, headers, size, lastId }) {
  const base = `${url}/api/v1/data/orders`;
  const { total } = await getJson(`${base}?limit=1`, headers);
  if (total !== size) throw new Error(`seed check: total is ${total}, expected ${size}`);
  const { data } = await getJson(`${base}?limit=50&sort=-_createdAt`, headers);
  const expected = [lastId, ...Array.from({ length: 49 }, (_, i) => seedId(size - 1 - i))];
  const got = data.map((doc) => doc._id);
  if (got.join() !== expected.slice(0, got.length).join() || got.length !== Math.min(50, size))
    throw new Error(
      `seed check: the newest documents are ${got.slice(0, 3).join(', ')}…, not the seeded ones`,
    );
  const first = await getJson(`${base}/${seedId(1)}`, headers);
  if (first._id !== seedId(1) || typeof first._createdAt !== 'string')
    throw new Error(`seed check: ${seedId(1)} reads back as ${JSON.stringify(first).slice(0, 80)}`);
}
