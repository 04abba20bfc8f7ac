import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createAccountWithKey, type RunningServer, startServer } from '../src/index.js';
import { createTestDatabase } from './helpers.js';

const today = () => new Date().toISOString().slice(0, 10);

/** Two instances on one PostgreSQL must bill as one service. */
describe.skipIf(!inject('postgresUrl'))('billing across instances on PostgreSQL', () => {
  let a: RunningServer;
  let b: RunningServer;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    const database = await createTestDatabase();
    const dirs = [0, 1].map(() => mkdtempSync(join(tmpdir(), 'dataplatform-billing-')));
    const servers = await Promise.all(
      dirs.map((dataDir) =>
        startServer({ port: 0, host: '127.0.0.1', dataDir, databaseUrl: database.url, logLevel: 'warn' }),
      ),
    );
    [a, b] = servers as [RunningServer, RunningServer];
    cleanup = async () => {
      await Promise.all([a, b].map((server) => server?.close()));
      await database.drop();
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    };
  }, 60_000);
  afterAll(() => cleanup?.());

  const write = (server: RunningServer, key: string) =>
    fetch(`${server.url}/api/v1/data/orders`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ total: 1 }),
    });

  it('sums the requests metered by both instances exactly', async () => {
    const { apiKey, userId } = await createAccountWithKey(a.storage, {
      email: 'metered@example.com',
      name: 'Metered',
      password: 'long enough pw',
      plan: 'team',
    });
    // Interleaved and concurrent, with flushes in between, so both instances add to the same day's row.
    for (let round = 0; round < 5; round++) {
      const answers = await Promise.all([
        ...Array.from({ length: 6 }, () => write(a, apiKey)),
        ...Array.from({ length: 4 }, () => write(b, apiKey)),
      ]);
      expect(answers.map((res) => res.status)).toEqual(Array(10).fill(201));
      await Promise.all([a.app.billing.meter!.flush(), b.app.billing.meter!.flush()]);
    }
    const rows = await b.storage.billing.usage(userId, today(), today());
    expect(rows.map((row) => row.requests)).toEqual([50]);
  });

  it('lifts a suspension made on one instance at once on the other', async () => {
    const { apiKey, userId } = await createAccountWithKey(a.storage, {
      email: 'payg@example.com',
      name: 'Payg',
      password: 'long enough pw',
      plan: 'payg',
    });
    // With no credits, the charge on a suspends the account; the key's record on b follows without waiting.
    await a.app.billing.tasks.chargePayg(new Date());
    expect((await write(b, apiKey)).status).toBe(402);
    await a.storage.billing.grantCredits({ userId }, 1000);
    expect((await write(b, apiKey)).status).toBe(201);
  });

  it('runs each billing task on one instance per period', async () => {
    const now = new Date(Date.now() + 365 * 86_400_000);
    const [ranA, ranB] = await Promise.all([a.maintenance.tick(now), b.maintenance.tick(now)]);
    for (const task of [
      'billing-end-trials',
      'billing-trial-notices',
      'billing-read-storage',
      'billing-charge-payg',
    ])
      expect([ranA.includes(task), ranB.includes(task)].filter(Boolean)).toHaveLength(1);
  });
});
