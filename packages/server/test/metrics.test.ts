import { MetricSeries, MetricsSummary, RequestLogList } from '@dataplatform/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  availableEngines,
  bearer,
  type SignedUp,
  signUp,
  startTestServer,
  type TestServer,
} from './helpers.js';
import { expectError } from './key-helpers.js';

/** A clock the test moves; it starts at 10:59:30 UTC of a fixed day. */
const clock = { at: Date.parse('2026-11-20T10:59:30.000Z'), now: () => clock.at };

/** The value at percentile `p` of `values` as HDR defines it: the smallest value with p % of them at or below. */
function exactPercentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1]!;
}

/** Two significant digits: at most 1 % above (HDR answers a bucket's highest value), plus the microsecond. */
function expectWithinSketchError(actual: number, exact: number) {
  expect(actual).toBeGreaterThanOrEqual(exact * 0.99 - 0.001);
  expect(actual).toBeLessThanOrEqual(exact * 1.01 + 0.002);
}

describe.each(availableEngines())('request metrics on %s', (engine) => {
  let t: TestServer;
  let who: SignedUp;
  let clusterId: string;
  let key: { id: string; secret: string };
  beforeAll(async () => {
    t = await startTestServer({ engine, clock, config: { metricsToken: 'scrape-token-for-tests' } });
    who = await signUp(t);
    const clusters = await as('GET', '/api/clusters');
    clusterId = ((await clusters.json()) as { data: { _id: string }[] }).data[0]!._id;
    const made = await as('POST', '/api/keys', { name: 'metrics', scopes: ['data:read', 'data:write'] });
    const body = (await made.json()) as { key: { _id: string }; secret: string };
    key = { id: body.key._id, secret: body.secret };
  }, 60_000);
  afterAll(() => t?.stop(), 30_000);

  const as = (method: string, path: string, body?: unknown) =>
    t.call(method, path, { key: null, headers: bearer(who.token), body });
  const series = async (query: string) => {
    const res = await as('GET', `/api/metrics?clusterId=${clusterId}&${query}`);
    expect(res.status, await res.clone().text()).toBe(200);
    return MetricSeries.parse(await res.json());
  };
  /** Durations of this key's requests from `from`, as the request log kept them. */
  const durations = async (from: string, to: string) => {
    await t.server.app.requestLog!.flush();
    const res = await as('GET', `/api/logs/requests?keyId=${key.id}&from=${from}&to=${to}&limit=1000`);
    return RequestLogList.parse(await res.json()).data.map((e) => e.durationMs);
  };

  it('counts a known mix exactly, with percentiles within the sketch error', async () => {
    clock.at = Date.parse('2026-11-20T10:59:30.000Z');
    const made = await t.call('POST', '/api/v1/data/orders', { key: key.secret, body: { n: 1 } });
    const { _id } = (await made.json()) as { _id: string };
    for (let i = 0; i < 15; i++) await t.call('GET', `/api/v1/data/orders/${_id}`, { key: key.secret });
    for (let i = 0; i < 3; i++) await t.call('GET', '/api/v1/data/orders/missing', { key: key.secret });
    await t.call('POST', '/api/v1/data/orders', { key: key.secret, body: { n: 2 } });
    const got = await series('interval=minute&from=2026-11-20T10:59:00Z&to=2026-11-20T11:00:00Z');
    expect(got.series).toHaveLength(1);
    const [minute] = got.series;
    expect(minute).toMatchObject({ t: '2026-11-20T10:59:00.000Z', requests: 20, errors: 3 });
    expect(minute!.bytesIn).toBeGreaterThan(0);
    expect(minute!.bytesOut).toBeGreaterThan(0);
    const values = await durations('2026-11-20T10:59:00Z', '2026-11-20T11:00:00Z');
    expect(values).toHaveLength(20);
    expectWithinSketchError(minute!.p50Ms, exactPercentile(values, 50));
    expectWithinSketchError(minute!.p95Ms, exactPercentile(values, 95));
    expectWithinSketchError(minute!.p99Ms, exactPercentile(values, 99));
    // The key's own series holds the same requests.
    const byKey = await series(
      `interval=minute&keyId=${key.id}&from=2026-11-20T10:59:00Z&to=2026-11-20T11:00:00Z`,
    );
    expect(byKey.series[0]).toMatchObject({ requests: 20, errors: 3 });
  });

  it('rolls minutes up into hours and days across an hour boundary, merging the histograms', async () => {
    clock.at = Date.parse('2026-11-20T11:00:20.000Z');
    for (let i = 0; i < 7; i++) await t.call('GET', '/api/v1/data/orders', { key: key.secret });
    await t.call('GET', '/api/v1/data/orders/nope', { key: key.secret });
    const minutes = await series('interval=minute&from=2026-11-20T10:59:00Z&to=2026-11-20T11:01:00Z');
    expect(minutes.series.map((p) => [p.t, p.requests, p.errors])).toEqual([
      ['2026-11-20T10:59:00.000Z', 20, 3],
      ['2026-11-20T11:00:00.000Z', 8, 1],
    ]);
    const hours = await series('interval=hour&from=2026-11-20T10:00:00Z&to=2026-11-20T12:00:00Z');
    expect(hours.series.map((p) => [p.t, p.requests, p.errors])).toEqual([
      ['2026-11-20T10:00:00.000Z', 20, 3],
      ['2026-11-20T11:00:00.000Z', 8, 1],
    ]);
    const days = await series('interval=day&from=2026-11-20T00:00:00Z&to=2026-11-21T00:00:00Z');
    expect(days.series.map((p) => [p.t, p.requests, p.errors])).toEqual([
      ['2026-11-20T00:00:00.000Z', 28, 4],
    ]);
    const values = await durations('2026-11-20T00:00:00Z', '2026-11-21T00:00:00Z');
    expect(values).toHaveLength(28);
    expectWithinSketchError(days.series[0]!.p50Ms, exactPercentile(values, 50));
    expectWithinSketchError(days.series[0]!.p99Ms, exactPercentile(values, 99));
  });

  it("answers a cluster's totals", async () => {
    const res = await as('GET', `/api/metrics/summary?clusterId=${clusterId}`);
    expect(res.status, await res.clone().text()).toBe(200);
    expect(MetricsSummary.parse(await res.json())).toEqual({
      documents: 2,
      storageBytes: expect.any(Number),
      collections: 1,
      keys: 1,
      webhookSuccessRate: null,
      functionInvocations: 0,
      requestsToday: 28,
    });
  });

  it("refuses another user's cluster and spans of too many buckets", async () => {
    const other = await signUp(t);
    await expectError(
      await t.call('GET', `/api/metrics?clusterId=${clusterId}`, { key: null, headers: bearer(other.token) }),
      404,
      'not_found',
    );
    await expectError(await as('GET', `/api/metrics/summary?clusterId=${clusterId}x`), 404, 'not_found');
    await expectError(
      await as('GET', `/api/metrics?clusterId=${clusterId}&interval=minute&from=2026-01-01T00:00:00Z`),
      400,
      'validation_error',
    );
    await expectError(
      await as('GET', `/api/metrics?clusterId=${clusterId}&interval=week`),
      400,
      'validation_error',
    );
  });

  it('lets loopback scrape /metrics in Prometheus text, and others only with the token', async () => {
    const res = await fetch(`${t.url}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    const text = await res.text();
    for (const name of [
      'dataplatform_http_requests_total{method="GET",status="2xx"}',
      'dataplatform_http_request_duration_seconds_bucket',
      'dataplatform_nodejs_eventloop_lag_seconds',
      'dataplatform_webhook_outbox_depth 0',
      'dataplatform_webhook_delivery_lag_seconds 0',
      'dataplatform_database_up{engine=',
      'dataplatform_request_log_buffered',
    ])
      expect(text).toContain(name);
    const app = t.server.app;
    const from = { remoteAddress: '203.0.113.9' };
    expect((await app.inject({ method: 'GET', url: '/metrics', ...from })).statusCode).toBe(401);
    const wrong = { authorization: 'Bearer nope' };
    expect((await app.inject({ method: 'GET', url: '/metrics', headers: wrong, ...from })).statusCode).toBe(
      401,
    );
    const right = { authorization: 'Bearer scrape-token-for-tests' };
    expect((await app.inject({ method: 'GET', url: '/metrics', headers: right, ...from })).statusCode).toBe(
      200,
    );
  });
});
