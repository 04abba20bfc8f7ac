import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createAccountWithKey, type RunningServer, startServer } from '../src/index.js';
import { createTestDatabase } from './helpers.js';

const ready = Boolean(inject('postgresUrl') && inject('redisUrl'));

/** Two instances on one PostgreSQL and one Redis must behave as one service. */
describe.skipIf(!ready)('several instances on PostgreSQL and Redis', () => {
  let a: RunningServer;
  let b: RunningServer;
  let extra: RunningServer;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    const database = await createTestDatabase();
    const dirs = [0, 1, 2].map(() => mkdtempSync(join(tmpdir(), 'dataplatform-multi-')));
    const options = (dataDir: string) => ({
      port: 0,
      host: '127.0.0.1',
      dataDir,
      databaseUrl: database.url,
      redisUrl: inject('redisUrl')!,
      logLevel: 'warn',
    });
    // All three start at once on an empty database: migrations and the first-start account must not collide.
    const servers = await Promise.all(dirs.map((dir) => startServer(options(dir))));
    [a, b, extra] = servers as [RunningServer, RunningServer, RunningServer];
    cleanup = async () => {
      await Promise.all([a, b, extra].map((server) => server?.close()));
      await database.drop();
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    };
  }, 60_000);
  afterAll(() => cleanup?.());

  const call = (server: RunningServer, key: string, method: string, path: string, body?: unknown) =>
    fetch(`${server.url}${path}`, {
      method,
      headers: { 'x-api-key': key, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });

  it('started three instances at once with one development account between them', () => {
    expect([a, b, extra].filter((server) => server.devAccount !== null)).toHaveLength(1);
  });

  it('reads through one instance what was written through the other', async () => {
    const { apiKey } = await createAccountWithKey(a.storage, {
      email: 'rw@example.com',
      name: 'RW',
      password: 'long enough pw',
      plan: 'team',
    });
    const created = await (await call(a, apiKey, 'POST', '/api/v1/data/orders', { total: 5 })).json();
    const read = await call(b, apiKey, 'GET', `/api/v1/data/orders/${created._id}`);
    expect(read.status).toBe(200);
    expect(await read.json()).toEqual(created);
    expect((await (await call(b, apiKey, 'GET', '/api/v1/data/orders')).json()).total).toBe(1);
  });

  it('refuses on one instance a key paused through the other', async () => {
    const { apiKey, keyId } = await createAccountWithKey(a.storage, {
      email: 'pause@example.com',
      name: 'P',
      password: 'long enough pw',
      plan: 'team',
    });
    expect((await call(b, apiKey, 'GET', '/api/v1/data/orders')).status).toBe(200);
    await a.storage.keys.setStatus(keyId, 'paused');
    const refused = await call(b, apiKey, 'GET', '/api/v1/data/orders');
    expect(refused.status).toBe(401);
    expect((await refused.json()).code).toBe('key_paused');
  });

  it('counts a key’s rate limit once across both instances', async () => {
    const { apiKey } = await createAccountWithKey(a.storage, {
      email: 'limit@example.com',
      name: 'L',
      password: 'long enough pw',
    });
    const answers = await Promise.all(
      Array.from({ length: 140 }, (_, i) => call(i % 2 === 0 ? a : b, apiKey, 'GET', '/api/v1/data/limited')),
    );
    expect(answers.filter((r) => r.status === 200)).toHaveLength(100);
    expect(answers.filter((r) => r.status === 429)).toHaveLength(40);
  });

  it('runs a periodic task in one instance only', async () => {
    const now = new Date(Date.now() + 3_600_000);
    const ran = await Promise.all([a, b, extra].map((server) => server.maintenance.tick(now)));
    expect(ran.flat().filter((name) => name === 'purge-expired-idempotency-keys')).toHaveLength(1);
  });
});
