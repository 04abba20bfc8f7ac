/**
 * What the client benchmarks (`pnpm bench:python`, `pnpm bench:go`) share: the reference server (SQLite) in its
 * own process holding one order to GET by id, and the median of a target's rounds.
 */
import { join } from 'node:path';
import { startChild } from './child.mjs';

/** Starts the reference server over `dataDir` with one order; resolves with `{ url, apiKey, id, stop }`. */
export async function serverWithOneOrder(root, dataDir) {
  const server = await startChild(join(root, 'bench', 'servers', 'reference.mjs'), ['-', dataDir], {
    env: { DATABASE_URL: '' },
  });
  try {
    const { url, apiKey } = server.info;
    const created = await fetch(`${url}/api/v1/data/orders`, {
      method: 'POST',
      headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ customer: 'ada', total: 42, items: [{ sku: 'a', qty: 2 }] }),
    }).then((r) => r.json());
    return { url, apiKey, id: created._id, stop: () => server.stop() };
  } catch (error) {
    await server.stop();
    throw error;
  }
}

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
