import { describe, expect, it } from 'vitest';
import { useMockApi } from './harness.js';

const { mocks, call } = useMockApi();

const seed = () =>
  mocks.store.seed('orders', [
    { _id: 'o1', total: 250, status: 'paid', customer: { name: 'Ada' } },
    { _id: 'o2', total: 80, status: 'sent' },
    { _id: 'o3', total: 120, status: 'Paid' },
  ]);

const sql = (statement: string, params?: unknown[], key?: string) =>
  call('POST', '/api/v1/data/sql', { json: { sql: statement, params }, key });

describe('POST /api/v1/data/sql', () => {
  it('answers rows and the translated query, like the server', async () => {
    seed();
    const result = await sql(
      'SELECT _id, customer.name AS who FROM orders WHERE total > ? ORDER BY total DESC',
      [100],
    );
    expect(result.status).toBe(200);
    expect(result.body.data).toEqual([
      { _id: 'o1', who: 'Ada' },
      { _id: 'o3', who: null },
    ]);
    expect(result.body.query).toMatchObject({
      collection: 'orders',
      where: { op: 'gt', path: ['total'], value: 100 },
    });
  });

  it('counts, and matches LIKE case-sensitively', async () => {
    seed();
    expect((await sql("SELECT COUNT(*) FROM orders WHERE status LIKE 'p%'")).body.data).toEqual([
      { count: 1 },
    ]);
  });

  it('groups and aggregates with the contract evaluator the server is tested against', async () => {
    seed();
    const result = await sql(
      'SELECT status, COUNT(*) AS n, SUM(total) FROM orders GROUP BY status HAVING n >= ? ORDER BY status',
      [1],
    );
    expect(result.body.data).toEqual([
      { status: 'Paid', n: 1, 'SUM(total)': 120 },
      { status: 'paid', n: 1, 'SUM(total)': 250 },
      { status: 'sent', n: 1, 'SUM(total)': 80 },
    ]);
  });

  it('wins over the create route of /api/v1/data/{collection}, which would refuse the reserved name "sql"', async () => {
    const result = await sql('SELECT COUNT(*) FROM orders');
    expect(result.status).toBe(200);
    expect(result.body).toEqual({
      data: [{ count: 0 }],
      query: expect.objectContaining({ collection: 'orders' }),
    });
  });

  it.each([
    ['SELECT LOWER(status) FROM orders', 'Unknown column function LOWER at position 8'],
    ['SELECT * FROM orders; DROP TABLE documents', 'Only one statement is allowed'],
    ['SELECT * FROM orders o JOIN people p ON o.a = p.b', 'JOIN is not supported'],
    ['SELECT status, total FROM orders GROUP BY status', 'total is neither grouped nor aggregated'],
    ['SELECT * FROM orders WHERE SUM(total) > 1', 'Aggregates are not allowed in WHERE'],
  ])('refuses %j with 400 invalid_sql', async (statement, message) => {
    const result = await sql(statement);
    expect(result.status).toBe(400);
    expect(result.body.code).toBe('invalid_sql');
    expect(result.body.error).toContain(message);
  });

  it.each([
    ['no sql', { params: [] }, 'validation_error'],
    ['an array', [], 'invalid_body'],
  ])('refuses a body with %s', async (_name, json, code) => {
    const result = await call('POST', '/api/v1/data/sql', { json });
    expect(result.body.code).toBe(code);
  });

  it('lets a key with only query:execute query, and refuses one with only data:write', async () => {
    seed();
    expect((await sql('SELECT * FROM orders', [], mocks.addKey({ scopes: ['query:execute'] }))).status).toBe(
      200,
    );
    const refused = await sql('SELECT * FROM orders', [], mocks.addKey({ scopes: ['data:write'] }));
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('insufficient_scope');
  });
});
