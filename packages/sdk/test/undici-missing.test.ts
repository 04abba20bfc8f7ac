import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { type LocalServer, sendJson, startServer } from './helpers.js';

// A bundle that left undici out must still work: the Node transport falls back to fetch.
vi.mock('undici', () => {
  throw new Error('Cannot find package undici');
});

let local: LocalServer;
beforeAll(async () => {
  local = await startServer((_req, res) => sendJson(res, 200, { ok: true }));
});
afterAll(() => local.close());

it('falls back to fetch when undici cannot be loaded', async () => {
  const { DataPlatform } = await import('../src/index.js');
  await expect(new DataPlatform({ baseUrl: local.url }).get('/x')).resolves.toEqual({ ok: true });
  expect(local.seen[0]!.headers['sec-fetch-mode']).toBe('cors'); // only Node's fetch sends it
});
