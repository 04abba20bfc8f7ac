import { beforeAll, describe, expect, it } from 'vitest';
import { forEachEngine, type TestServer } from './helpers.js';

const ORDERS = [
  { _id: 'o1', total: 250, status: 'paid', customer: { name: 'Ada', city: 'Oslo' }, tags: ['a'], rush: true },
  { _id: 'o2', total: 80, status: 'sent', customer: { name: 'bob', city: 'Rome' }, rush: false },
  { _id: 'o3', total: 120.5, status: 'Paid', customer: { name: 'Cy' }, note: null },
  { _id: 'o4', total: '300', status: 'open', customer: { name: 'Dee_%' } },
  { _id: 'o5', status: 'paid', customer: 'none' },
];

forEachEngine((server) => {
  let t: TestServer;

  async function sql(statement: string, params?: unknown[], key?: string) {
    const res = await t.call('POST', '/api/v1/data/sql', { body: { sql: statement, params }, key });
    return { status: res.status, body: await res.json() };
  }

  async function ids(statement: string, params?: unknown[]) {
    const { status, body } = await sql(statement, params);
    expect(status, JSON.stringify(body)).toBe(200);
    return body.data.map((doc: { _id: string }) => doc._id);
  }

  beforeAll(async () => {
    t = server();
    for (const order of ORDERS) {
      expect((await t.call('POST', '/api/v1/data/orders', { body: order })).status).toBe(201);
    }
  });

  describe('reading', () => {
    it('answers whole documents and the translated query', async () => {
      const { status, body } = await sql('SELECT * FROM orders WHERE total > 100 ORDER BY total DESC');
      expect(status).toBe(200);
      expect(body.data.map((d: { _id: string }) => d._id)).toEqual(['o1', 'o3']);
      expect(body.data[0]).toMatchObject({ _id: 'o1', total: 250, customer: { name: 'Ada', city: 'Oslo' } });
      expect(body.data[0]._createdAt).toEqual(expect.any(String));
      expect(body.query).toEqual({
        collection: 'orders',
        select: { kind: 'all' },
        where: { op: 'gt', path: ['total'], value: 100 },
        sort: [{ path: ['total'], descending: true }],
        limit: 100,
        skip: 0,
      });
    });

    it('projects fields keyed by alias or dotted path, null where missing, in the order written', async () => {
      const { body } = await sql('SELECT customer.name, total AS amount, _id, nope FROM orders ORDER BY _id');
      expect(body.data[0]).toEqual({ 'customer.name': 'Ada', amount: 250, _id: 'o1', nope: null });
      expect(Object.keys(body.data[0])).toEqual(['customer.name', 'amount', '_id', 'nope']);
      expect(body.data[4]).toEqual({ 'customer.name': null, amount: null, _id: 'o5', nope: null });
    });

    it('projects arrays, objects and booleans as JSON', async () => {
      const { body } = await sql(`SELECT tags, customer, rush FROM orders WHERE _id = 'o1'`);
      expect(body.data).toEqual([{ tags: ['a'], customer: { name: 'Ada', city: 'Oslo' }, rush: true }]);
    });

    it('counts the matches of WHERE', async () => {
      expect((await sql('SELECT COUNT(*) FROM orders')).body.data).toEqual([{ count: 5 }]);
      expect((await sql("SELECT count(*) FROM orders WHERE status = 'paid'")).body.data).toEqual([
        { count: 2 },
      ]);
      expect((await sql('SELECT COUNT(*) FROM nothing_here')).body.data).toEqual([{ count: 0 }]);
    });

    it('answers no rows for an unknown collection', async () => {
      expect((await sql('SELECT * FROM nothing_here')).body).toMatchObject({ data: [] });
    });

    it('binds ? and $n parameters', async () => {
      expect(await ids('SELECT * FROM orders WHERE status = ? AND total > ?', ['paid', 100])).toEqual(['o1']);
      expect(await ids('SELECT * FROM orders WHERE total < $2 OR status = $1', ['open', 100])).toEqual([
        'o2',
        'o4',
      ]);
    });

    it('reads nested fields written dotted, double-quoted or backticked', async () => {
      expect(await ids(`SELECT * FROM orders WHERE customer.city = 'Oslo'`)).toEqual(['o1']);
      expect(await ids(`SELECT * FROM orders WHERE "customer"."city" = 'Rome'`)).toEqual(['o2']);
      expect(await ids("SELECT * FROM orders WHERE `customer`.`name` = 'Cy'")).toEqual(['o3']);
    });

    it('compares numbers numerically and never across JSON types', async () => {
      // o4's total is the string "300": neither > 100 nor = 300.
      expect(await ids('SELECT * FROM orders WHERE total >= 120.5')).toEqual(['o1', 'o3']);
      expect(await ids('SELECT * FROM orders WHERE total = 300')).toEqual([]);
      expect(await ids(`SELECT * FROM orders WHERE total = '300'`)).toEqual(['o4']);
      expect(await ids('SELECT * FROM orders WHERE total BETWEEN 80 AND 121')).toEqual(['o2', 'o3']);
      expect(await ids('SELECT * FROM orders WHERE total NOT BETWEEN 80 AND 121')).toEqual([
        'o1',
        'o4',
        'o5',
      ]);
    });

    it('treats a missing field as unequal to everything, so != and NOT IN include it', async () => {
      expect(await ids(`SELECT * FROM orders WHERE total != 80`)).toEqual(['o1', 'o3', 'o4', 'o5']);
      expect(await ids(`SELECT * FROM orders WHERE total NOT IN (80, 250)`)).toEqual(['o3', 'o4', 'o5']);
      expect(await ids(`SELECT * FROM orders WHERE total IN (80, 250, '300')`)).toEqual(['o1', 'o2', 'o4']);
    });

    it('matches IS NULL on missing fields and JSON null, and never = NULL', async () => {
      expect(await ids('SELECT * FROM orders WHERE note IS NULL')).toEqual(['o1', 'o2', 'o3', 'o4', 'o5']);
      expect(await ids('SELECT * FROM orders WHERE total IS NULL')).toEqual(['o5']);
      expect(await ids('SELECT * FROM orders WHERE total IS NOT NULL')).toEqual(['o1', 'o2', 'o3', 'o4']);
      expect(await ids('SELECT * FROM orders WHERE note = NULL')).toEqual([]);
      expect(await ids('SELECT * FROM orders WHERE note = ?', [null])).toEqual([]);
    });

    it('compares booleans with = and !=', async () => {
      expect(await ids('SELECT * FROM orders WHERE rush = true')).toEqual(['o1']);
      expect(await ids('SELECT * FROM orders WHERE rush = ?', [false])).toEqual(['o2']);
      expect(await ids('SELECT * FROM orders WHERE rush != true')).toEqual(['o2', 'o3', 'o4', 'o5']);
    });

    it('matches LIKE case-sensitively, with % and _ and backslash escapes', async () => {
      expect(await ids(`SELECT * FROM orders WHERE status LIKE 'p%'`)).toEqual(['o1', 'o5']);
      expect(await ids(`SELECT * FROM orders WHERE status LIKE 'P_id'`)).toEqual(['o3']);
      expect(await ids(`SELECT * FROM orders WHERE status NOT LIKE '%a%'`)).toEqual(['o2', 'o4']);
      expect(await ids('SELECT * FROM orders WHERE customer.name LIKE ?', ['Dee\\_\\%'])).toEqual(['o4']);
      expect(await ids(`SELECT * FROM orders WHERE customer.name LIKE 'D*'`)).toEqual([]);
      expect(await ids(`SELECT * FROM orders WHERE _id LIKE 'o_'`)).toEqual(['o1', 'o2', 'o3', 'o4', 'o5']);
    });

    it('combines AND, OR, NOT and parentheses', async () => {
      const statement = `SELECT * FROM orders WHERE NOT (status = 'paid' OR status = 'sent') AND (total > 100 OR total IS NULL)`;
      expect(await ids(statement)).toEqual(['o3']);
      expect(await ids(`SELECT * FROM orders WHERE NOT status = 'paid' AND total > 100`)).toEqual(['o3']);
    });

    it('orders like the list route: null < booleans < numbers < strings, ties by _id in the last direction', async () => {
      expect(await ids('SELECT * FROM orders ORDER BY total')).toEqual(['o5', 'o2', 'o3', 'o1', 'o4']);
      expect(await ids('SELECT * FROM orders ORDER BY status DESC, total DESC')).toEqual([
        'o2',
        'o1',
        'o5',
        'o4',
        'o3',
      ]);
      expect(await ids('SELECT * FROM orders ORDER BY customer.city DESC')).toEqual([
        'o2',
        'o1',
        'o5',
        'o4',
        'o3',
      ]);
    });

    it('pages with LIMIT and OFFSET in either order', async () => {
      expect(await ids('SELECT * FROM orders ORDER BY _id LIMIT 2 OFFSET 1')).toEqual(['o2', 'o3']);
      expect(await ids('SELECT * FROM orders ORDER BY _id OFFSET 3 LIMIT 1')).toEqual(['o4']);
      expect(await ids('SELECT * FROM orders LIMIT 0')).toEqual([]);
      const { body } = await sql('SELECT * FROM orders OFFSET 4');
      expect(body.query).toMatchObject({ limit: 100, skip: 4 });
    });

    it('sees only the caller’s cluster', async () => {
      const { body } = await sql('SELECT COUNT(*) FROM orders', undefined, t.other.apiKey);
      expect(body.data).toEqual([{ count: 0 }]);
    });
  });

  describe('refusals', () => {
    it.each([
      ['DELETE FROM orders', 'DELETE statements are not supported'],
      ['SELECT * FROM orders; DROP TABLE documents', 'Only one statement is allowed'],
      ['SELECT * FROM orders o JOIN people p ON o.a = p.b', 'JOIN is not supported'],
      ['SELECT * FROM orders WHERE _id IN (SELECT _id FROM people)', 'Subqueries are not supported'],
      ['SELECT LOWER(status) FROM orders', 'Unknown column function LOWER at position 8'],
      ['SELECT status, total FROM orders GROUP BY status', 'total is neither grouped nor aggregated'],
      ['  -- nothing', 'Empty statement'],
      ['SELECT * FROM batch', 'Collection name "batch" is reserved'],
      ['SELECT * FROM orders LIMIT 1001', 'LIMIT 1001 is over the maximum of 1000'],
      ['SELECT * FROM orders WHERE total >', 'Syntax error at the end of the statement'],
    ])('answers 400 invalid_sql for %j', async (statement, message) => {
      const { status, body } = await sql(statement);
      expect(status).toBe(400);
      expect(body.code).toBe('invalid_sql');
      expect(body.error).toContain(message);
      expect(body.requestId).toEqual(expect.any(String));
    });

    it('refuses a parameter count that does not match', async () => {
      const { status, body } = await sql('SELECT * FROM orders WHERE total > ?', [1, 2]);
      expect(status).toBe(400);
      expect(body).toMatchObject({ code: 'invalid_sql' });
    });

    it('points at the offending part with details.position', async () => {
      const { body } = await sql('SELECT * FROM orders WHERE upper(status) = 1');
      expect(body).toMatchObject({ code: 'invalid_sql', details: { position: 28 } });
    });

    it.each([
      ['a body without sql', { params: [] }, 'validation_error'],
      ['params that are not scalars', { sql: 'SELECT * FROM orders', params: [{}] }, 'validation_error'],
      ['an empty statement', { sql: '' }, 'invalid_sql'],
      ['a statement of blanks', { sql: ' \n ' }, 'invalid_sql'],
      ['a field the body does not have', { sql: 'SELECT * FROM orders', analyze: true }, 'validation_error'],
      ['a body that is an array', ['SELECT 1'], 'invalid_body'],
    ])('refuses %s', async (_name, body, code) => {
      const res = await t.call('POST', '/api/v1/data/sql', { body });
      expect(res.status).toBe(400);
      expect((await res.json()).code).toBe(code);
    });

    it('refuses a body over the limit with 413 payload_too_large', async () => {
      const params = Array(150_000).fill('xxxxxxxx');
      const res = await t.call('POST', '/api/v1/data/sql', { body: { sql: 'SELECT * FROM orders', params } });
      expect(res.status).toBe(413);
      expect((await res.json()).code).toBe('payload_too_large');
    });

    it('refuses malformed JSON with invalid_json', async () => {
      const res = await t.call('POST', '/api/v1/data/sql', {
        body: '{"sql":',
        headers: { 'content-type': 'application/json' },
      });
      expect((await res.json()).code).toBe('invalid_json');
    });

    it('answers GET /api/v1/data/sql with 405 and Allow: POST, neither the helper nor a collection', async () => {
      const res = await t.call('GET', '/api/v1/data/sql');
      expect([res.status, res.headers.get('allow')]).toEqual([405, 'POST']);
      expect((await res.json()).code).toBe('method_not_allowed');
    });
  });

  describe('scopes', () => {
    it.each([[['query:execute']], [['data:read']], [['database:read']]])(
      'lets a key with %j query',
      async (scopes) => {
        const { apiKey } = await t.addKey({ scopes });
        expect((await sql('SELECT COUNT(*) FROM orders', undefined, apiKey)).status).toBe(200);
      },
    );

    it('refuses a key with only data:write (403 insufficient_scope)', async () => {
      const { apiKey } = await t.addKey({ scopes: ['data:write'] });
      const { status, body } = await sql('SELECT * FROM orders', undefined, apiKey);
      expect(status).toBe(403);
      expect(body).toMatchObject({
        code: 'insufficient_scope',
        details: { required: ['data:read', 'query:execute'] },
      });
    });
  });
});
