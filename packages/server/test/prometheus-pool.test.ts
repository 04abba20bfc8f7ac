import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers.js';

const POOL_SIZE = 3;

/** The value of one series in Prometheus text, or undefined when it is absent. */
function series(text: string, name: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.slice(name.length + 1));
}

/**
 * The pool gauges of `/metrics` on PostgreSQL: a table held by another session keeps every connection busy, the
 * requests beyond the pool wait, and the scrape still answers and shows both.
 */
describe.skipIf(!inject('postgresUrl'))('the database pool in /metrics', () => {
  let t: TestServer;
  let blocker: postgres.Sql;
  beforeAll(async () => {
    t = await startTestServer({ engine: 'postgres', config: { databasePoolSize: POOL_SIZE } });
    blocker = postgres(t.databaseUrl!, { max: 1, onnotice: () => {} });
  }, 60_000);
  afterAll(async () => {
    await blocker?.end({ timeout: 1 });
    await t?.stop();
  }, 30_000);

  const scrape = async () => {
    const res = await fetch(`${t.url}/metrics`);
    expect(res.status).toBe(200);
    return res.text();
  };

  it('shows busy connections and waiting queries while the database holds them, and none after', async () => {
    const created = await t.call('POST', '/api/v1/data/orders', { body: { n: 1 } });
    expect(created.status).toBe(201);
    const { _id } = (await created.json()) as { _id: string };
    const quiet = await scrape();
    expect(series(quiet, 'dataplatform_database_pool_connections{state="max"}')).toBe(POOL_SIZE);
    expect(series(quiet, 'dataplatform_database_pool_waiting_queries')).toBe(0);

    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const lockTaken = new Promise<void>((resolve) => (locked = resolve));
    const transaction = blocker.begin(async (sql) => {
      await sql`LOCK TABLE documents IN ACCESS EXCLUSIVE MODE`;
      locked();
      await held;
    });
    await lockTaken;
    const reads = Array.from({ length: POOL_SIZE + 2 }, () => t.call('GET', `/api/v1/data/orders/${_id}`));
    // The pool opens its connections as the reads arrive: until the last one is open, a read can wait for it while
    // it connects. The gauges are read again until every connection is busy and the reads beyond them wait.
    await expect
      .poll(
        async () => {
          const busy = await scrape();
          return {
            busy: series(busy, 'dataplatform_database_pool_connections{state="busy"}'),
            idle: series(busy, 'dataplatform_database_pool_connections{state="idle"}'),
            waiting: (series(busy, 'dataplatform_database_pool_waiting_queries') ?? 0) >= 2,
          };
        },
        { timeout: 20_000 },
      )
      .toEqual({ busy: POOL_SIZE, idle: 0, waiting: true });

    release();
    await transaction;
    for (const res of await Promise.all(reads)) expect(res.status).toBe(200);
    // The server's own background writes (request logs, metrics) queued behind the lock too: the pool drains them.
    await expect
      .poll(async () => series(await scrape(), 'dataplatform_database_pool_waiting_queries'), {
        timeout: 10_000,
      })
      .toBe(0);
    const after = await scrape();
    expect(series(after, 'dataplatform_database_up{engine="postgres"}')).toBe(1);
  }, 60_000);
});
