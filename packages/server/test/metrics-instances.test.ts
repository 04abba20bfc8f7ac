import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MetricSeries } from '@dataplatform/contract';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type RunningServer, startServer } from '../src/index.js';
import { bearer, createTestDatabase, signUp } from './helpers.js';

/** One clock for both instances, so every request falls in the same minute. */
const clock = { now: () => Date.parse('2026-11-20T08:30:30.000Z') };

/** Two instances over one PostgreSQL database add their counts to the same buckets: the totals are exact. */
describe.skipIf(!inject('postgresUrl'))('request metrics with two instances on PostgreSQL', () => {
  let a: RunningServer;
  let b: RunningServer;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    const database = await createTestDatabase();
    const dirs = [0, 1].map(() => mkdtempSync(join(tmpdir(), 'dataplatform-metrics-multi-')));
    const options = (dataDir: string) => ({
      port: 0,
      host: '127.0.0.1',
      dataDir,
      databaseUrl: database.url,
      logLevel: 'fatal',
    });
    a = await startServer(options(dirs[0]!), { clock });
    b = await startServer(options(dirs[1]!), { clock });
    cleanup = async () => {
      await Promise.all([a, b].map((server) => server?.close()));
      await database.drop();
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    };
  }, 60_000);
  afterAll(() => cleanup?.(), 30_000);

  it('sums the requests made through both exactly', async () => {
    const via = (server: RunningServer) => ({
      call: (
        method: string,
        path: string,
        options: { key?: string | null; body?: unknown; headers?: Record<string, string> } = {},
      ) =>
        fetch(`${server.url}${path}`, {
          method,
          headers: {
            ...(options.key ? { 'x-api-key': options.key } : {}),
            ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
            ...options.headers,
          },
          body: options.body === undefined ? undefined : JSON.stringify(options.body),
        }),
    });
    const who = await signUp(via(a));
    const session = { key: null, headers: bearer(who.token) };
    const made = await via(a).call('POST', '/api/keys', {
      ...session,
      body: { name: 'both', scopes: ['data:read', 'data:write'] },
    });
    expect(made.status).toBe(201);
    const { key, secret } = (await made.json()) as {
      key: { _id: string; clusterId: string };
      secret: string;
    };
    const [throughA, throughB, missingB] = [23, 17, 4];
    for (let i = 0; i < throughA; i++)
      await via(a).call('POST', '/api/v1/data/orders', { key: secret, body: { i } });
    for (let i = 0; i < throughB; i++)
      await via(b).call('GET', '/api/v1/data/orders?limit=1', { key: secret });
    for (let i = 0; i < missingB; i++)
      await via(b).call('GET', '/api/v1/data/orders/missing', { key: secret });
    await a.app.metricsRecorder!.flush();
    await b.app.metricsRecorder!.flush();
    for (const server of [a, b]) {
      const res = await via(server).call(
        'GET',
        `/api/metrics?clusterId=${key.clusterId}&interval=minute&keyId=${key._id}&from=2026-11-20T08:30:00Z&to=2026-11-20T08:31:00Z`,
        session,
      );
      expect(res.status, await res.clone().text()).toBe(200);
      const { series } = MetricSeries.parse(await res.json());
      expect(series).toEqual([
        expect.objectContaining({
          t: '2026-11-20T08:30:00.000Z',
          requests: throughA + throughB + missingB,
          errors: missingB,
        }),
      ]);
    }
  });
});
