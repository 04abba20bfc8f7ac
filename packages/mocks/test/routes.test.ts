import { routes } from '@dataplatform/contract';
import { describe, expect, it } from 'vitest';
import { operations } from '../src/operations.js';
import { useMockApi } from './harness.js';

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
};

/** Fills a contract path with a seeded document's address. */
function pathOf(template: string): string {
  return template.replace('{collection}', 'routeCheck').replace('{id}', 'r1');
}

describe('the route table', () => {
  it('has an implementation for every route of the contract', () => {
    for (const route of routes) expect(Object.keys(operations), route.id).toContain(route.id);
    expect(mocks.handlers).toHaveLength(routes.length);
  });

  it.each(routes.map((route) => [route.id, route] as const))(
    '%s answers its documented success status and schema',
    async (_id, route) => {
      mocks.store.seed('routeCheck', [{ _id: 'r1', n: 1 }]);
      const result = await call(route.method, pathOf(route.path), {
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
