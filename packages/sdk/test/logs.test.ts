import { describe, expect, it } from 'vitest';
import { DataPlatform, NotFoundError } from '../src/index.js';
import { useMockedApi } from './mocked-api.js';

const { baseUrl, mocks } = useMockedApi();

describe('client.logs.requests', () => {
  it('lists the requests a user made, filtered, newest first, and gets one by request id', async () => {
    const client = new DataPlatform({ baseUrl, maxRetries: 0 });
    await client.auth.signUp(
      { email: 'logs@example.com', password: 'a long enough password', name: 'Logs' },
      { storeToken: true },
    );
    await client.auth.profile();
    await expect(client.data.get('orders', 'missing')).rejects.toBeInstanceOf(NotFoundError);
    const errors = await client.logs.requests.list({ status: '4xx' });
    expect(errors.data.map((r) => [r.method, r.path, r.status])).toEqual([
      ['GET', '/api/v1/data/orders/missing', 404],
    ]);
    // Listing is itself logged: a walk with an end stays the same length however long it takes.
    const to = new Date(Date.now() + 1).toISOString();
    await new Promise((resolve) => setTimeout(resolve, 2));
    const paths: string[] = [];
    for await (const r of client.logs.requests.list({ method: 'GET', to, limit: 1 })) paths.push(r.path);
    expect(paths).toEqual([
      '/api/logs/requests?status=4xx&skip=0',
      '/api/v1/data/orders/missing',
      '/api/auth/profile',
    ]);
    const one = await client.logs.requests.get(errors.data[0]!.requestId);
    expect(one.status).toBe(404);
    await expect(client.logs.requests.get('req-nobody')).rejects.toBeInstanceOf(NotFoundError);
  });

  it('lists with an API key that has logs:read', async () => {
    const client = new DataPlatform({ baseUrl, apiKey: mocks.addKey({ scopes: ['logs:read'] }) });
    const page = await client.logs.requests.listByKey({ path: '/api/v1' });
    expect(page.data).toBeInstanceOf(Array);
  });
});

describe('client.metrics', () => {
  it("reads a cluster's series and totals, and refuses a cluster of someone else", async () => {
    const client = new DataPlatform({ baseUrl, maxRetries: 0 });
    await client.auth.signUp(
      { email: 'metrics@example.com', password: 'a long enough password', name: 'M' },
      { storeToken: true },
    );
    const clusterId = (await client.clusters.list()).data[0]!._id;
    expect(await client.metrics.get({ clusterId, interval: 'hour' })).toEqual({
      interval: 'hour',
      series: [],
    });
    expect(await client.metrics.summary(clusterId)).toMatchObject({ keys: 0, webhookSuccessRate: null });
    await expect(client.metrics.summary('cls_nobody')).rejects.toBeInstanceOf(NotFoundError);
  });
});
