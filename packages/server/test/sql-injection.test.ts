import type { JsonObject } from '@dataplatform/contract';
import { evaluate } from '@dataplatform/contract/sql';
import { beforeAll, describe, expect, it } from 'vitest';
import { forEachEngine, type TestServer } from './helpers.js';

const DROP = 'DROP TABLE documents';

/** Statements (and parameters) that try to escape the grammar; each must be answered as data or refused. */
const CORPUS: [string, string, unknown[]?][] = [
  ['a tautology of two literals', "SELECT * FROM orders WHERE name = 'x' OR '1' = '1'"],
  ['a quote closed inside a literal', `SELECT * FROM orders WHERE name = 'x''; ${DROP}; --'`],
  ['a quote closed inside a parameter', 'SELECT * FROM orders WHERE name = ?', [`x'; ${DROP}; --`]],
  ['a backslash-escaped quote', `SELECT * FROM orders WHERE name = 'x\\'; ${DROP}; --'`],
  ['a stacked statement', `SELECT * FROM orders; ${DROP}`],
  ['a stacked statement after a comment', `SELECT * FROM orders -- x\n; ${DROP}`],
  ['a stacked DELETE after IN', 'SELECT * FROM orders WHERE name IN (1); DELETE FROM documents'],
  ['a line comment', 'SELECT * FROM orders -- WHERE 1 = 0'],
  ['a block comment', "SELECT * FROM orders /* ' */ WHERE name = 'ada'"],
  ['an unterminated block comment', 'SELECT * FROM orders WHERE name = 1 /*'],
  ['comment markers inside a literal', "SELECT * FROM orders WHERE name = '--' OR name = '/*'"],
  ['a quoted field that closes SQL', `SELECT * FROM orders WHERE "name') OR 1=1 --" = 1`],
  ['a field that looks like a JSON path', `SELECT * FROM orders WHERE "$.name" = 'ada' OR "a[0]" = 1`],
  ['a backticked field with a double quote', 'SELECT `na"me` FROM orders'],
  ['a doubled double quote in a field', `SELECT * FROM orders WHERE "a""; ${DROP}; --" = 1`],
  ['fullwidth quotes', 'SELECT * FROM orders WHERE name = ＇ada＇'],
  ['fullwidth keywords', 'ＳＥＬＥＣＴ * FROM orders'],
  ['a Cyrillic homoglyph in the collection', 'SELECT * FROM оrders'],
  ['a Cyrillic homoglyph in a field', "SELECT * FROM orders WHERE nаme = 'ada'"],
  ['a zero-width space', 'SELECT\u200b * FROM orders'],
  ['a right-to-left override in a literal', "SELECT * FROM orders WHERE name = '\u202eada'"],
  ['a huge integer', 'SELECT * FROM orders WHERE n = 123456789012345678901234567890'],
  ['the largest double', 'SELECT * FROM orders WHERE n < ?', [1.7976931348623157e308]],
  ['a number out of range', 'SELECT * FROM orders WHERE n = 1e309'],
  ['a huge LIMIT', 'SELECT * FROM orders LIMIT 99999999999999999999'],
  ['a huge OFFSET', 'SELECT * FROM orders OFFSET 9007199254740993'],
  ['a negative LIMIT', 'SELECT * FROM orders LIMIT -1'],
  ['a hex literal', 'SELECT * FROM orders WHERE name = 0x41'],
  ['an escape-string literal', "SELECT * FROM orders WHERE name = E'\\x27'"],
  ['dollar quoting', 'SELECT * FROM orders WHERE name = $$ada$$'],
  ['a function call', 'SELECT pg_sleep(5) FROM orders'],
  ['a function in WHERE', "SELECT * FROM orders WHERE name = char(39) OR sqlite_version() = '3'"],
  ['a UNION', 'SELECT * FROM orders UNION SELECT * FROM documents'],
  ['the engine table as a collection', 'SELECT * FROM documents'],
  ['a system catalog', 'SELECT * FROM sqlite_master'],
  ['a schema-qualified catalog', 'SELECT * FROM pg_catalog.pg_tables'],
  ['a JSON operator', "SELECT * FROM orders WHERE data->>'name' = 'ada'"],
  ['a cast', "SELECT * FROM orders WHERE name::text = 'ada'"],
  ['a thousand ORs', `SELECT * FROM orders WHERE ${Array(1100).fill('n = 2').join(' OR ')}`],
  ['deeply nested parentheses', `SELECT * FROM orders WHERE ${'('.repeat(3000)}n = 1${')'.repeat(3000)}`],
  ['a deep NOT chain', `SELECT * FROM orders WHERE ${'NOT '.repeat(2000)}n = 1`],
  ['a stacked statement after GROUP BY', `SELECT name FROM orders GROUP BY name; ${DROP}`],
  ['an alias that closes SQL', `SELECT name AS "x', 1); ${DROP}; --", COUNT(*) FROM orders GROUP BY name`],
  ['a backticked alias with quotes', 'SELECT COUNT(*) AS `n\'"); --` FROM orders'],
  ['an aggregate of a field that closes SQL', `SELECT SUM("n') OR 1=1 --") FROM orders`],
  ['an aggregate of a field that looks like a JSON path', 'SELECT MAX("$.name"), MIN("a[0]") FROM orders'],
  ['COUNT(DISTINCT) of a quoted field', `SELECT COUNT(DISTINCT "name""; ${DROP}") FROM orders`],
  ['a group key that closes SQL', `SELECT COUNT(*) FROM orders GROUP BY "name') --"`],
  [
    'injection text in HAVING',
    'SELECT name, COUNT(*) FROM orders GROUP BY name HAVING name = ?',
    [`x'; ${DROP}; --`],
  ],
  ['a tautology in HAVING', "SELECT name FROM orders GROUP BY name HAVING COUNT(*) > 0 OR '1' = '1'"],
  ['a subquery in HAVING', 'SELECT name FROM orders GROUP BY name HAVING COUNT(*) > (SELECT 1)'],
  ['a function in GROUP BY', 'SELECT COUNT(*) FROM orders GROUP BY lower(name)'],
  ['an aggregate of an expression', 'SELECT SUM(n + 1) FROM orders'],
  ['an aggregate of a literal', "SELECT MAX('x'), SUM(1) FROM orders"],
  ['an engine aggregate', "SELECT group_concat(name), string_agg(name, ',') FROM orders"],
  ['a window function', 'SELECT COUNT(*) OVER (PARTITION BY name) FROM orders'],
  ['DISTINCT ON', 'SELECT DISTINCT ON (name) name FROM orders'],
  ['a cast in ORDER BY', 'SELECT name FROM orders GROUP BY name ORDER BY SUM(n)::text'],
  ['GROUP BY ROLLUP', 'SELECT name, COUNT(*) FROM orders GROUP BY ROLLUP (name)'],
  ['grouping a system catalog', 'SELECT sql, COUNT(*) FROM sqlite_master GROUP BY sql'],
  [
    'sixty group keys',
    `SELECT COUNT(*) FROM orders GROUP BY ${Array.from({ length: 60 }, (_, i) => `f${i}`).join(', ')}`,
  ],
  [
    'many parameters',
    `SELECT * FROM orders WHERE n IN (${Array(3000).fill('?').join(',')})`,
    Array(3000).fill(1),
  ],
];

/** Strings no engine stores as sent: every JSON body refuses them before the statement is read. */
const UNSTORABLE: [string, string, unknown[]?][] = [
  ['a NUL byte in a literal', "SELECT * FROM orders WHERE name = 'a\u0000b'"],
  ['a NUL byte in the statement', 'SELECT * FROM orders\u0000; DROP TABLE documents'],
  ['a NUL byte in a parameter', 'SELECT * FROM orders WHERE name = ?', ['ada\u0000']],
  ['a lone surrogate in a parameter', 'SELECT * FROM orders WHERE name = ?', ['\ud800']],
];

forEachEngine((server) => {
  let t: TestServer;
  let documents: JsonObject[];

  beforeAll(async () => {
    t = server();
    for (const body of [
      { name: 'ada', n: 1 },
      { name: "x'; DROP TABLE documents; --", n: 2 },
      { name: 'bob' },
    ]) {
      expect((await t.call('POST', '/api/v1/data/orders', { body })).status).toBe(201);
    }
    documents = (await (await t.call('GET', '/api/v1/data/orders')).json()).data;
  });

  describe('the injection corpus', () => {
    it.each(CORPUS)('answers %s as data or refuses it with invalid_sql', async (_name, sql, params) => {
      const res = await t.call('POST', '/api/v1/data/sql', { body: { sql, params } });
      const body = await res.json();
      if (res.status === 200) {
        const stored = body.query.collection === 'orders' ? documents : [];
        expect(body.data).toEqual(evaluate(body.query, stored));
      } else {
        expect({ status: res.status, code: body.code }).toEqual({ status: 400, code: 'invalid_sql' });
      }
    });

    it.each(UNSTORABLE)(
      'refuses %s with 400 validation_error before reading the statement',
      async (_name, sql, params) => {
        const res = await t.call('POST', '/api/v1/data/sql', { body: { sql, params } });
        expect({ status: res.status, code: (await res.json()).code }).toEqual({
          status: 400,
          code: 'validation_error',
        });
      },
    );

    it.each([
      ['a thousand ORs', `SELECT n FROM orders WHERE ${Array(1100).fill('n = 2').join(' OR ')}`, []],
      [
        'an IN list of 3000 parameters',
        `SELECT n FROM orders WHERE n IN (${Array(3000).fill('?').join(',')})`,
        Array(3000).fill(2),
      ],
    ])('answers %s (past SQLite’s expression depth limit)', async (_name, sql, params) => {
      const res = await t.call('POST', '/api/v1/data/sql', { body: { sql, params } });
      expect(await res.json()).toMatchObject({ data: [{ n: 2 }] });
    });

    it('finds the stored injection text as plain data', async () => {
      const res = await t.call('POST', '/api/v1/data/sql', {
        body: { sql: 'SELECT n FROM orders WHERE name = ?', params: ["x'; DROP TABLE documents; --"] },
      });
      expect((await res.json()).data).toEqual([{ n: 2 }]);
    });

    it('leaves the database intact: documents are still readable and writable', async () => {
      const list = await (await t.call('GET', '/api/v1/data/orders')).json();
      expect(list.data).toEqual(documents);
      expect((await t.call('POST', '/api/v1/data/orders', { body: { after: true } })).status).toBe(201);
      const count = await t.call('POST', '/api/v1/data/sql', {
        body: { sql: 'SELECT COUNT(*) FROM orders' },
      });
      expect((await count.json()).data).toEqual([{ count: 4 }]);
      const grouped = await t.call('POST', '/api/v1/data/sql', {
        body: { sql: 'SELECT COUNT(*) AS n, SUM(n) AS total FROM orders' },
      });
      expect((await grouped.json()).data).toEqual([{ n: 4, total: 3 }]);
    });
  });
});
