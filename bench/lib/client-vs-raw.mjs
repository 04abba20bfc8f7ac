/**
 * What the client benchmarks (`pnpm bench:python`, `bench:go`, `bench:java`) share: a reference server (SQLite) holding one
 * order to GET by id, and the table that sets a client's rounds beside the raw HTTP library's.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startChild } from './child.mjs';

/** Starts the reference server over a fresh data directory and stores one order; `stop()` removes both. */
export async function startOrderServer(root, name) {
  const dataDir = mkdtempSync(join(tmpdir(), `dp-bench-${name}-`));
  const server = await startChild(join(root, 'bench', 'servers', 'reference.mjs'), ['-', dataDir], {
    env: { DATABASE_URL: '' },
  });
  const { url, apiKey } = server.info;
  const created = await fetch(`${url}/api/v1/data/orders`, {
    method: 'POST',
    headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
    body: JSON.stringify({ customer: 'ada', total: 42, items: [{ sku: 'a', qty: 2 }] }),
  }).then((r) => r.json());
  return {
    url,
    apiKey,
    id: created._id,
    async stop() {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * The table rows and goal lines of one flavour: `raw` and `client` are the rounds' rates, measured side by side.
 * Each round's ratio compares two neighbouring measurements, so the machine's drift between rounds cancels.
 */
export function flavourRows({ label, rawName, clientName, raw, client, versus, goal }) {
  const ratio = median(client.map((value, i) => value / raw[i]));
  const fmt = (v) => Math.round(v).toLocaleString('en-US');
  const range = (vs) => `${fmt(Math.min(...vs))}–${fmt(Math.max(...vs))}`;
  return {
    rows: [
      `| ${label} | ${rawName} | ${fmt(median(raw))} | ${range(raw)} | 1.00× |`,
      `| ${label} | ${clientName} | ${fmt(median(client))} | ${range(client)} | ${ratio.toFixed(2)}× |`,
    ],
    goal: `- ${label}: the client reaches ${ratio.toFixed(2)}× raw ${versus} (goal ≥ ${goal}×): ${ratio >= goal ? 'met' : 'not met'}`,
  };
}
