import { beforeAll, describe, expect, it } from 'vitest';
import { forEachEngine, type TestServer } from './helpers.js';

const ORDERS = [
  { _id: 'o1', status: 'paid', total: 250, customer: { city: 'Oslo' }, rush: true },
  { _id: 'o2', status: 'sent', total: 80, customer: { city: 'Rome' }, rush: false },
  { _id: 'o3', status: 'paid', total: 120.5, customer: { city: 'Oslo' } },
  { _id: 'o4', status: 'open', total: '300', customer: { city: 'Oslo' }, rush: true },
  { _id: 'o5', status: 'paid', customer: { city: 'Rome' } },
  { _id: 'o6', total: 7, customer: { city: 'Rome' } },
  { _id: 'o7', status: ['paid'], total: 0.1 },
  { _id: 'o8', status: 'true', total: 0.2 },
  { _id: 'o9', status: true, total: 1 },
  { _id: 'o10', status: 1, total: false },
];

forEachEngine((server) => {
  let t: TestServer;

  async function sql(statement: string, params?: unknown[]) {
    const res = await t.call('POST', '/api/v1/data/sql', { body: { sql: statement, params } });
    return { status: res.status, body: await res.json() };
  }

  async function rows(statement: string, params?: unknown[]) {
    const { status, body } = await sql(statement, params);
    expect(status, JSON.stringify(body)).toBe(200);
    return body.data;
  }

  beforeAll(async () => {
    t = server();
    for (const order of ORDERS) {
      expect((await t.call('POST', '/api/v1/data/orders', { body: order })).status).toBe(201);
    }
  });

  describe('grouping', () => {
    it('counts and sums per group, keyed by the expression text, groups in key order', async () => {
      expect(await rows('SELECT status, COUNT(*), SUM(total) FROM orders GROUP BY status')).toEqual([
        // Missing, arrays: no value, one group. Then booleans < numbers < strings, each type apart.
        { status: null, 'COUNT(*)': 2, 'SUM(total)': 7.1 },
        { status: true, 'COUNT(*)': 1, 'SUM(total)': 1 },
        { status: 1, 'COUNT(*)': 1, 'SUM(total)': null },
        { status: 'open', 'COUNT(*)': 1, 'SUM(total)': null },
        { status: 'paid', 'COUNT(*)': 3, 'SUM(total)': 370.5 },
        { status: 'sent', 'COUNT(*)': 1, 'SUM(total)': 80 },
        { status: 'true', 'COUNT(*)': 1, 'SUM(total)': 0.2 },
      ]);
    });

    it('answers aliases, nested paths, every aggregate, HAVING and ORDER BY an aggregate', async () => {
      const statement = `SELECT customer.city AS city, count(*) AS n, COUNT(total), COUNT(DISTINCT status),
        AVG(total), MIN(total), MAX(total) FROM orders WHERE _id != 'o7'
        GROUP BY customer.city HAVING COUNT(total) >= ? ORDER BY n DESC, city`;
      const data = await rows(statement, [3]);
      expect(data).toEqual([
        {
          city: null,
          n: 3,
          'COUNT(total)': 3,
          'COUNT(DISTINCT status)': 3,
          'AVG(total)': 0.6,
          'MIN(total)': false,
          'MAX(total)': 1,
        },
        {
          city: 'Oslo',
          n: 3,
          'COUNT(total)': 3,
          'COUNT(DISTINCT status)': 2,
          'AVG(total)': 185.25,
          'MIN(total)': 120.5,
          'MAX(total)': '300',
        },
      ]);
      expect(Object.keys(data[1])).toEqual([
        'city',
        'n',
        'COUNT(total)',
        'COUNT(DISTINCT status)',
        'AVG(total)',
        'MIN(total)',
        'MAX(total)',
      ]);
    });

    it('pages groups with LIMIT and OFFSET, sorting by an aggregate not selected', async () => {
      expect(
        await rows(
          'SELECT status FROM orders GROUP BY status ORDER BY COUNT(*) DESC, status LIMIT 2 OFFSET 1',
        ),
      ).toEqual([{ status: null }, { status: true }]);
    });

    it('aggregates every match into one row without GROUP BY, also over no documents', async () => {
      expect(
        await rows("SELECT COUNT(*) AS n, SUM(total), MAX(status) FROM orders WHERE status = 'paid'"),
      ).toEqual([{ n: 3, 'SUM(total)': 370.5, 'MAX(status)': 'paid' }]);
      expect(await rows('SELECT COUNT(*) AS n, SUM(total) FROM orders WHERE total > 1000')).toEqual([
        { n: 0, 'SUM(total)': null },
      ]);
      expect(await rows('SELECT COUNT(*) AS n, MIN(x) FROM nothing_here')).toEqual([
        { n: 0, 'MIN(x)': null },
      ]);
      // A field that can never exist still makes one row, not one per document.
      expect(await rows('SELECT MAX(_id.x) FROM orders')).toEqual([{ 'MAX(_id.x)': null }]);
      expect(await rows('SELECT status, COUNT(*) FROM nothing_here GROUP BY status')).toEqual([]);
    });

    it('answers SELECT DISTINCT as one row per distinct value', async () => {
      expect(
        await rows(
          "SELECT DISTINCT customer.city FROM orders WHERE status = 'paid' ORDER BY customer.city DESC",
        ),
      ).toEqual([{ 'customer.city': 'Rome' }, { 'customer.city': 'Oslo' }]);
    });

    it('groups and aggregates system fields', async () => {
      expect(await rows('SELECT MIN(_id), MAX(_id), COUNT(DISTINCT _id), SUM(_id) FROM orders')).toEqual([
        { 'MIN(_id)': 'o1', 'MAX(_id)': 'o9', 'COUNT(DISTINCT _id)': 10, 'SUM(_id)': null },
      ]);
    });

    it('returns the translated query with the grouping', async () => {
      const { body } = await sql('SELECT status, SUM(total) AS s FROM orders GROUP BY status HAVING s > 100');
      expect(body.query).toEqual({
        collection: 'orders',
        select: {
          kind: 'groups',
          columns: [
            { path: ['status'], as: 'status' },
            { aggregate: { fn: 'sum', path: ['total'] }, as: 's' },
          ],
        },
        groupBy: [['status']],
        having: { op: 'gt', aggregate: { fn: 'sum', path: ['total'] }, value: 100 },
        sort: [],
        limit: 100,
        skip: 0,
      });
      expect(body.data).toEqual([{ status: 'paid', s: 370.5 }]);
    });
  });

  describe('refusals', () => {
    it.each([
      ['SELECT * FROM orders WHERE COUNT(*) > 1', 'Aggregates are not allowed in WHERE', 28],
      ['SELECT status, total FROM orders GROUP BY status', 'total is neither grouped nor aggregated', 16],
      ['SELECT total, COUNT(*) FROM orders', 'total is neither grouped nor aggregated', 8],
      ['SELECT status FROM orders HAVING COUNT(*) > 1', 'HAVING needs GROUP BY', 34],
      ['SELECT DISTINCT * FROM orders', 'DISTINCT does not apply to *', 17],
      [
        'SELECT status FROM orders GROUP BY status HAVING total > 1',
        'total in HAVING is neither grouped nor aggregated',
        50,
      ],
      [
        'SELECT status FROM orders GROUP BY status ORDER BY total',
        'ORDER BY total: the field is neither grouped',
        52,
      ],
      ['SELECT SUM(DISTINCT total) FROM orders', 'Syntax error', 21],
      ['SELECT SUM(*) FROM orders', 'SUM(*) is not supported', 8],
      ['SELECT MEDIAN(total) FROM orders', 'Unknown', 8],
      ['SELECT status FROM orders GROUP BY 1', 'GROUP BY takes field names, not positions', undefined],
      ['SELECT * FROM orders GROUP BY status', 'SELECT * cannot be grouped', 8],
    ])('answers 400 invalid_sql for %j', async (statement, message, position) => {
      const { status, body } = await sql(statement);
      expect(status).toBe(400);
      expect(body.code).toBe('invalid_sql');
      expect(body.error).toContain(message);
      expect(body.details).toEqual(position === undefined ? undefined : { position });
    });
  });
});
