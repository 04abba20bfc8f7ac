import { routes } from '@dataplatform/contract';
import { describe, expect, it } from 'vitest';
import { operations } from '../src/operations.js';
import { BASE_URL, useMockApi } from './harness.js';

const { mocks, call } = useMockApi();

/**
 * Routes whose body is not a document: a valid body, and the scopes a key without any is told to hold
 * (the batch route checks them per operation, so they are not the route's own).
 */
const SAMPLES: Record<string, { body: unknown; required: string[] }> = {
  'data.sql': { body: { sql: 'SELECT * FROM routeCheck' }, required: ['data:read', 'query:execute'] },
  'data.batch': {
    body: { operations: [{ op: 'get', collection: 'routeCheck', id: 'r1' }] },
    required: ['data:read'],
  },
  'webhooks.create': {
    body: { url: 'https://example.com/hook', events: ['*'] },
    required: ['webhooks:manage'],
  },
  'webhooks.rotateSecret': { body: {}, required: ['webhooks:manage'] },
};

/** Fills a contract path with a seeded document's address and, for webhook routes, a subscription and its delivery. */
function pathOf(template: string, ids = { webhookId: 'wh_x', deliveryId: 'dlv_x' }): string {
  return template
    .replace('{collection}', 'routeCheck')
    .replace('{id}', 'r1')
    .replace('{webhookId}', ids.webhookId)
    .replace('{deliveryId}', ids.deliveryId);
}

/** A subscription to routeCheck and the delivery the seeded document made for it. */
async function webhookWithDelivery() {
  const { body } = await call('POST', '/api/v1/data/webhooks', {
    json: { url: 'https://example.com/hook', events: ['*'], collection: 'routeCheck' },
  });
  mocks.store.seed('routeCheck', [{ _id: 'r1', n: 1 }]);
  const deliveries = await call('GET', `/api/v1/data/webhooks/${body._id}/deliveries`);
  return { webhookId: body._id as string, deliveryId: deliveries.body.data[0]._id as string };
}

describe('the route table', () => {
  it('has an implementation for every route of the contract', () => {
    for (const route of routes) expect(Object.keys(operations), route.id).toContain(route.id);
    expect(mocks.handlers).toHaveLength(routes.length);
  });

  it.each(routes.map((route) => [route.id, route] as const))(
    '%s answers its documented success status and schema',
    async (_id, route) => {
      const ids = route.path.includes('{webhookId}') ? await webhookWithDelivery() : undefined;
      if (!ids) mocks.store.seed('routeCheck', [{ _id: 'r1', n: 1 }]);
      const path = pathOf(route.path, ids);
      if (route.success.contentType) {
        // A stream: its media type instead of a JSON body.
        const res = await fetch(`${BASE_URL}${path}`, { headers: { 'X-API-Key': mocks.apiKey } });
        expect(res.status).toBe(route.success.status);
        expect(res.headers.get('content-type')).toContain(route.success.contentType);
        expect(res.headers.get('x-request-id')).toBeTruthy();
        return;
      }
      const result = await call(route.method, path, {
        json: route.body ? (SAMPLES[route.id]?.body ?? { n: 2 }) : undefined,
      });
      expect(result.status).toBe(route.success.status);
      const parsed = route.success.schema.safeParse(result.body);
      expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
      expect(result.headers.get('x-request-id')).toBeTruthy();
    },
  );

  it.each(routes.map((route) => [route.id, route] as const))(
    '%s asks for the scopes the contract names',
    async (_id, route) => {
      const key = mocks.addKey({ scopes: [] });
      const sample = SAMPLES[route.id];
      const json = route.body ? (sample?.body ?? {}) : undefined;
      const result = await call(route.method, pathOf(route.path), { key, json });
      expect(result.status).toBe(403);
      expect(result.body.details).toMatchObject({ required: sample?.required ?? [...route.scopes] });
    },
  );
});
