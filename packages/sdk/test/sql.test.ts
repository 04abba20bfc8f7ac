import { createDataPlatformMocks } from '@dataplatform/mocks';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BadRequestError, DataPlatform, DataPlatformError, PermissionDeniedError } from '../src/index.js';

interface Order {
  total: number;
  status: string;
  customer?: { name: string };
}

const mocks = createDataPlatformMocks();
const server = setupServer(...mocks.handlers);
const client = new DataPlatform({ apiKey: mocks.apiKey, baseUrl: 'http://localhost:5000', maxRetries: 0 });

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => mocks.store.reset());
afterAll(() => server.close());

function seed() {
  mocks.store.seed('orders', [
    { _id: 'o1', total: 250, status: 'paid', customer: { name: 'Ada' } },
    { _id: 'o2', total: 80, status: 'sent', customer: { name: 'Bob' } },
    { _id: 'o3', total: 120, status: 'paid' },
    { _id: 'o4', total: 300, status: 'open' },
  ]);
}

describe('client.data.sql', () => {
  it('runs a statement with parameters and answers rows and the translated query', async () => {
    seed();
    const { data, query } = await client.data.sql<Order>(
      'SELECT * FROM orders WHERE total > ? ORDER BY total',
      [100],
    );
    expect(data.map((o) => o.total)).toEqual([120, 250, 300]);
    expect(query).toMatchObject({ collection: 'orders', where: { op: 'gt', path: ['total'], value: 100 } });
  });

  it('rejects a statement outside the grammar with BadRequestError invalid_sql', async () => {
    const error = await client.data.sql('SELECT LOWER(status) FROM orders').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error).toMatchObject({ status: 400, code: 'invalid_sql' });
  });

  it('rejects a key without data:read or query:execute with PermissionDeniedError', async () => {
    const writer = client.withOptions({ apiKey: mocks.addKey({ scopes: ['data:write'] }) });
    await expect(writer.data.sql('SELECT * FROM orders')).rejects.toBeInstanceOf(PermissionDeniedError);
  });
});

describe('client.data.query', () => {
  const orders = () => client.data.query<Order>('orders');

  it('compiles to the SQL helper with every value bound as a ? parameter', () => {
    const built = orders()
      .where('total', '>', 100)
      .where('status', 'in', ['paid', 'sent'])
      .orderBy('-_createdAt')
      .select('total', 'customer.name')
      .limit(10)
      .offset(20);
    expect(built.toSQL()).toEqual({
      sql: 'SELECT "total", "customer"."name" FROM "orders" WHERE ("total" > ?) AND ("status" IN (?, ?)) ORDER BY "_createdAt" DESC LIMIT 10 OFFSET 20',
      params: [100, 'paid', 'sent'],
    });
  });

  it('is awaitable and answers like client.data.sql', async () => {
    seed();
    const { data } = await orders()
      .where('status', '=', 'paid')
      .where('customer.name', 'is null')
      .select('total', 'customer.name');
    expect(data).toEqual([{ total: 120, 'customer.name': null }]);
    const sorted = await orders().where('total', 'between', [100, 260]).orderBy('-total').limit(1);
    expect(sorted.data.map((o) => o._id)).toEqual(['o1']);
  });

  it('counts the matches, ignoring order and paging', async () => {
    seed();
    expect(await orders().where('status', 'not like', 'p%').orderBy('total').limit(1).count()).toBe(2);
  });

  it('keeps each builder unchanged when a new one is derived from it', async () => {
    seed();
    const paid = orders().where('status', '=', 'paid');
    const big = paid.where('total', '>=', 200);
    expect(await paid.count()).toBe(2);
    expect(await big.count()).toBe(1);
  });

  it('keeps hostile values out of the SQL text', () => {
    const { sql, params } = orders().where('status', '=', "x'); DROP TABLE documents; --").toSQL();
    expect(sql).not.toContain('DROP');
    expect(params).toEqual(["x'); DROP TABLE documents; --"]);
  });

  it.each([
    ['a field with a double quote', () => orders().where('a"b' as 'status', '=', 1)],
    ['an empty path step', () => orders().select('customer..name')],
    ['a limit over 1000', () => orders().limit(1001)],
    ['a negative offset', () => orders().offset(-1)],
    ['an empty IN list', () => orders().where('status', 'in', [])],
    ['a collection name that is not one', () => client.data.query('orders; DROP')],
  ])('refuses %s before sending anything', (_name, build) => {
    expect(build).toThrow(DataPlatformError);
  });
});

describe('client.data.query(...).groupBy', () => {
  const orders = () => client.data.query<Order>('orders');

  it('compiles grouped fields, aggregates, HAVING and ORDER BY with every value bound', () => {
    const built = orders()
      .where('total', '>', 0)
      .groupBy('status', 'customer.name')
      .count('n')
      .sum('total')
      .countDistinct('customer.name')
      .having('n', '>=', 2)
      .orderBy('-n', 'status')
      .limit(5)
      .offset(1);
    expect(built.toSQL()).toEqual({
      sql: 'SELECT "status", "customer"."name", COUNT(*) AS "n", SUM("total"), COUNT(DISTINCT "customer"."name") FROM "orders" WHERE ("total" > ?) GROUP BY "status", "customer"."name" HAVING ("n" >= ?) ORDER BY "n" DESC, "status" ASC LIMIT 5 OFFSET 1',
      params: [0, 2],
    });
  });

  it('answers one row per group keyed by field, alias or aggregate text', async () => {
    seed();
    const { data } = await orders()
      .groupBy('status')
      .count()
      .sum('total', 'revenue')
      .avg('total')
      .orderBy('-revenue');
    expect(data).toEqual([
      { status: 'paid', 'COUNT(*)': 2, revenue: 370, 'AVG(total)': 185 },
      { status: 'open', 'COUNT(*)': 1, revenue: 300, 'AVG(total)': 300 },
      { status: 'sent', 'COUNT(*)': 1, revenue: 80, 'AVG(total)': 80 },
    ]);
  });

  it('aggregates every match into one row with groupBy() and filters groups with having', async () => {
    seed();
    expect((await orders().groupBy().min('total').max('total', 'top')).data).toEqual([
      { 'MIN(total)': 80, top: 300 },
    ]);
    expect((await orders().groupBy('status').count('n').having('n', '>', 1)).data).toEqual([
      { status: 'paid', n: 2 },
    ]);
  });

  it.each([
    ['an alias with a double quote', () => orders().groupBy('status').count('a"b')],
    ['a grouped query with nothing to answer', () => orders().groupBy().toSQL()],
    ['an aggregate of a field with a control character', () => orders().groupBy().sum('a\u0001')],
  ])('refuses %s before sending anything', (_name, build) => {
    expect(build).toThrow(DataPlatformError);
  });
});
