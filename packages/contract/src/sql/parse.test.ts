import { describe, expect, it } from 'vitest';
import type { CollectionQuery } from '../schemas/sql.js';
import { CollectionQuery as CollectionQuerySchema } from '../schemas/sql.js';
import { parseSql } from './parse.js';

function parse(sql: string, params?: unknown[]): CollectionQuery {
  const result = parseSql(sql, params);
  if ('code' in result) throw new Error(result.message);
  expect(CollectionQuerySchema.safeParse(result).success).toBe(true);
  return result;
}

const where = (condition: string, params?: unknown[]) =>
  parse(`SELECT * FROM t WHERE ${condition}`, params).where;

describe('parseSql: supported forms', () => {
  it('reads SELECT * with the defaults', () => {
    expect(parse('SELECT * FROM orders')).toEqual({
      collection: 'orders',
      select: { kind: 'all' },
      sort: [],
      limit: 100,
      skip: 0,
    });
  });

  it('reads fields, aliases and COUNT(*)', () => {
    expect(parse('SELECT a, b.c AS d, "e"."f", `g h` FROM t').select).toEqual({
      kind: 'fields',
      fields: [
        { path: ['a'], as: 'a' },
        { path: ['b', 'c'], as: 'd' },
        { path: ['e', 'f'], as: 'e.f' },
        { path: ['g h'], as: 'g h' },
      ],
    });
    expect(parse('select count(*) from t').select).toEqual({ kind: 'count' });
  });

  it.each([
    ['a = 1', { op: 'eq', path: ['a'], value: 1 }],
    ['a != 1', { op: 'ne', path: ['a'], value: 1 }],
    ['a <> 1', { op: 'ne', path: ['a'], value: 1 }],
    ['a < 1', { op: 'lt', path: ['a'], value: 1 }],
    ['a <= 1', { op: 'lte', path: ['a'], value: 1 }],
    ['a > 1', { op: 'gt', path: ['a'], value: 1 }],
    ['a >= 1', { op: 'gte', path: ['a'], value: 1 }],
    ['1 < a', { op: 'gt', path: ['a'], value: 1 }],
    ["a IN (1, 'x', true, null)", { op: 'in', path: ['a'], values: [1, 'x', true, null] }],
    ['a NOT IN (2)', { op: 'nin', path: ['a'], values: [2] }],
    ["a LIKE 'x%'", { op: 'like', path: ['a'], value: 'x%' }],
    ["a NOT LIKE '_'", { op: 'notLike', path: ['a'], value: '_' }],
    ['a BETWEEN 1 AND 2', { op: 'between', path: ['a'], values: [1, 2] }],
    ['a NOT BETWEEN -1 AND 2.5', { op: 'not', condition: { op: 'between', path: ['a'], values: [-1, 2.5] } }],
    ['a IS NULL', { op: 'isNull', path: ['a'] }],
    ['a IS NOT NULL', { op: 'isNotNull', path: ['a'] }],
    ['NOT a = 1', { op: 'not', condition: { op: 'eq', path: ['a'], value: 1 } }],
    [
      'a = true AND b = false',
      {
        op: 'and',
        conditions: [
          { op: 'eq', path: ['a'], value: true },
          { op: 'eq', path: ['b'], value: false },
        ],
      },
    ],
    ['a = NULL', { op: 'eq', path: ['a'], value: null }],
    ["a = 'it''s'", { op: 'eq', path: ['a'], value: "it's" }],
    ["a = 'C:\\dir'", { op: 'eq', path: ['a'], value: 'C:\\dir' }],
    ['a = 1e3', { op: 'eq', path: ['a'], value: 1000 }],
    ['a.b.c.d = 1', { op: 'eq', path: ['a', 'b', 'c', 'd'], value: 1 }],
    ['"a b"."c"."d" = 1', { op: 'eq', path: ['a b', 'c', 'd'], value: 1 }],
    ['`a`.`b"c` = 1', { op: 'eq', path: ['a', 'b"c'], value: 1 }],
    ['_id = 1', { op: 'eq', path: ['_id'], value: 1 }],
  ])('reads %s', (condition, expected) => {
    expect(where(condition)).toEqual(expected);
  });

  it('flattens AND and OR chains and keeps parentheses as structure', () => {
    expect(where('a = 1 AND b = 2 AND (c = 3 OR d = 4 OR e = 5)')).toEqual({
      op: 'and',
      conditions: [
        { op: 'eq', path: ['a'], value: 1 },
        { op: 'eq', path: ['b'], value: 2 },
        {
          op: 'or',
          conditions: [
            { op: 'eq', path: ['c'], value: 3 },
            { op: 'eq', path: ['d'], value: 4 },
            { op: 'eq', path: ['e'], value: 5 },
          ],
        },
      ],
    });
  });

  it('binds AND tighter than OR, as SQL does, whatever the order', () => {
    const eq = (field: string, value: number) => ({ op: 'eq', path: [field], value });
    expect(where('a = 1 AND b = 2 OR c = 3')).toEqual({
      op: 'or',
      conditions: [{ op: 'and', conditions: [eq('a', 1), eq('b', 2)] }, eq('c', 3)],
    });
    expect(where('a = 1 OR b = 2 AND c = 3 OR d = 4 AND e = 5 AND f = 6')).toEqual({
      op: 'or',
      conditions: [
        eq('a', 1),
        { op: 'and', conditions: [eq('b', 2), eq('c', 3)] },
        { op: 'and', conditions: [eq('d', 4), eq('e', 5), eq('f', 6)] },
      ],
    });
    expect(where('NOT a = 1 AND b = 2 OR c = 3')).toEqual({
      op: 'or',
      conditions: [{ op: 'and', conditions: [{ op: 'not', condition: eq('a', 1) }, eq('b', 2)] }, eq('c', 3)],
    });
    expect(where('a = 1 AND (b = 2 OR c = 3)')).toEqual({
      op: 'and',
      conditions: [eq('a', 1), { op: 'or', conditions: [eq('b', 2), eq('c', 3)] }],
    });
  });

  it('reads a chain of a thousand ORs as one node, not a thousand levels', () => {
    const chain = where(Array(1000).fill('a = 1').join(' OR '));
    expect(chain).toMatchObject({ op: 'or' });
    expect((chain as { conditions: unknown[] }).conditions).toHaveLength(1000);
  });

  it('binds ? in order and $n by number', () => {
    expect(where('a = ? AND b IN (?, ?)', ['x', 1, null])).toEqual({
      op: 'and',
      conditions: [
        { op: 'eq', path: ['a'], value: 'x' },
        { op: 'in', path: ['b'], values: [1, null] },
      ],
    });
    expect(where('a = $2 OR b = $1 OR c = $2', [true, 'y'])).toMatchObject({
      conditions: [{ value: 'y' }, { value: true }, { value: 'y' }],
    });
  });

  it('reads ORDER BY, aliases in ORDER BY, LIMIT and OFFSET in either order', () => {
    expect(parse('SELECT * FROM t ORDER BY a DESC, b.c, d ASC LIMIT 5 OFFSET 2')).toMatchObject({
      sort: [
        { path: ['a'], descending: true },
        { path: ['b', 'c'], descending: false },
        { path: ['d'], descending: false },
      ],
      limit: 5,
      skip: 2,
    });
    expect(parse('SELECT * FROM t OFFSET 7 LIMIT 1')).toMatchObject({ limit: 1, skip: 7 });
    expect(parse('SELECT a.b AS x FROM t ORDER BY x DESC').sort).toEqual([
      { path: ['a', 'b'], descending: true },
    ]);
  });

  it('accepts comments, a trailing semicolon and quoted or hyphenated collection names', () => {
    expect(parse('SELECT * /* all */ FROM "my-orders"; -- done').collection).toBe('my-orders');
  });
});

describe('parseSql: grouping and aggregates', () => {
  it('reads GROUP BY, aggregates keyed by their text or alias, HAVING and ORDER BY an aggregate', () => {
    expect(
      parse(
        'SELECT status, count(*), Sum(total) AS s, COUNT(DISTINCT c.d) FROM t WHERE x = 1 GROUP BY status HAVING count(*) > ? ORDER BY s DESC, COUNT(*)',
        [2],
      ),
    ).toEqual({
      collection: 't',
      select: {
        kind: 'groups',
        columns: [
          { path: ['status'], as: 'status' },
          { aggregate: { fn: 'count' }, as: 'COUNT(*)' },
          { aggregate: { fn: 'sum', path: ['total'] }, as: 's' },
          { aggregate: { fn: 'count', path: ['c', 'd'], distinct: true }, as: 'COUNT(DISTINCT c.d)' },
        ],
      },
      where: { op: 'eq', path: ['x'], value: 1 },
      groupBy: [['status']],
      having: { op: 'gt', aggregate: { fn: 'count' }, value: 2 },
      sort: [
        { aggregate: { fn: 'sum', path: ['total'] }, descending: true },
        { aggregate: { fn: 'count' }, descending: false },
      ],
      limit: 100,
      skip: 0,
    });
  });

  it('reads DISTINCT as grouping by the selected fields', () => {
    expect(parse('SELECT DISTINCT a, b.c FROM t')).toMatchObject({
      select: { kind: 'groups', distinct: true },
      groupBy: [['a'], ['b', 'c']],
    });
  });

  it('reads aggregates without GROUP BY as one row, and keeps COUNT(*) alone as a count', () => {
    expect(parse('SELECT MIN(a), MAX(a) FROM t')).toMatchObject({
      select: { kind: 'groups', columns: [{ as: 'MIN(a)' }, { as: 'MAX(a)' }] },
    });
    expect(parse('SELECT MIN(a) FROM t').groupBy).toBeUndefined();
    expect(parse('SELECT COUNT(*) FROM t').select).toEqual({ kind: 'count' });
    expect(parse('SELECT COUNT(*) AS n FROM t').select).toEqual({
      kind: 'groups',
      columns: [{ aggregate: { fn: 'count' }, as: 'n' }],
    });
  });

  it('reads HAVING on a grouped field or an alias', () => {
    expect(parse('SELECT a AS x, AVG(b) AS m FROM t GROUP BY a HAVING x = 1 OR m > 2').having).toEqual({
      op: 'or',
      conditions: [
        { op: 'eq', path: ['a'], value: 1 },
        { op: 'gt', aggregate: { fn: 'avg', path: ['b'] }, value: 2 },
      ],
    });
  });
});

describe('parseSql: refusals name the offending part', () => {
  it.each([
    ['', 'Empty statement'],
    ['-- only a comment', 'Empty statement'],
    ['UPDATE t SET a = 1', 'UPDATE statements are not supported'],
    ['DELETE FROM t', 'DELETE statements are not supported'],
    ['SELECT * FROM t; SELECT * FROM u', 'Only one statement is allowed, found 2 (the second is SELECT)'],
    [
      'SELECT * FROM t JOIN u ON t.a = u.b',
      'JOIN is not supported: a query reads one collection at position 22',
    ],
    ['SELECT * FROM t, u', 'A query reads one collection'],
    ['SELECT * FROM (SELECT * FROM t) s', 'Subqueries are not supported'],
    ['SELECT * FROM t WHERE a IN (SELECT b FROM u)', 'Subqueries are not supported at position 23'],
    ['SELECT LOWER(a) FROM t', 'Unknown column function LOWER at position 8'],
    ['SELECT * FROM t WHERE upper(a) = 1', 'Unknown function upper at position 23'],
    ['SELECT SUM(*) FROM t', 'SUM(*) is not supported: only COUNT(*) at position 8'],
    ['SELECT MEDIAN(a) FROM t', 'Unknown column function MEDIAN at position 8'],
    [
      'SELECT COUNT(*), a FROM t',
      'a is neither grouped nor aggregated: add it to GROUP BY or use an aggregate such as MIN(a) at position 18',
    ],
    ['SELECT a, b FROM t GROUP BY a', 'b is neither grouped nor aggregated'],
    ['SELECT * FROM t WHERE COUNT(*) > 1', 'Aggregates are not allowed in WHERE'],
    [
      'SELECT * FROM t WHERE SUM(a) > 1',
      'Aggregates are not allowed in WHERE, which filters documents before grouping: use HAVING at position 23',
    ],
    ['SELECT a FROM t GROUP BY a HAVING b > 1', 'b in HAVING is neither grouped nor aggregated'],
    ['SELECT a FROM t GROUP BY a ORDER BY b', 'ORDER BY b: the field is neither grouped nor aggregated'],
    ['SELECT a FROM t ORDER BY COUNT(*)', 'ORDER BY an aggregate needs GROUP BY'],
    ['SELECT a FROM t GROUP BY a, a', 'a is grouped twice'],
    ['SELECT a FROM t GROUP BY 1', 'GROUP BY takes field names, not positions'],
    ['SELECT a FROM t GROUP BY COUNT(*)', 'GROUP BY takes fields, not aggregates'],
    ['SELECT * FROM t GROUP BY a', 'SELECT * cannot be grouped'],
    ['SELECT DISTINCT * FROM t', 'DISTINCT does not apply to *'],
    [
      'SELECT DISTINCT a FROM t GROUP BY a, b',
      'SELECT DISTINCT with GROUP BY needs every grouped field in the select list; b is not',
    ],
    ['SELECT COUNT(a) OVER () FROM t', 'OVER is not supported'],
    ['SELECT SUM(a.*) FROM t', 'at position'],
    ['SELECT *, a FROM t', '* must be the only item of the select list'],
    ['SELECT COUNT(*) FROM t ORDER BY a', 'COUNT(*) counts every match'],
    ["SELECT 'x' FROM t", 'Only fields, aggregates or * can be selected'],
    ['SELECT a, a FROM t', '"a" is selected twice'],
    ['SELECT * FROM t HAVING a = 1', 'HAVING needs GROUP BY'],
    ['SELECT * FROM t UNION SELECT * FROM u', 'UNION is not supported'],
    ['WITH x AS (SELECT * FROM t) SELECT * FROM x', 'WITH is not supported'],
    ['SELECT * FROM sql', 'Collection name "sql" is reserved at position 15'],
    ['SELECT * FROM "9lives"', 'Invalid collection name "9lives"'],
    ['SELECT * FROM public.t', 'Write the collection name alone, without a schema'],
    ['SELECT * FROM t AS x', 'Collection aliases are not supported'],
    ['SELECT * FROM t LIMIT 1001', 'LIMIT 1001 is over the maximum of 1000'],
    ['SELECT * FROM t LIMIT 1.5', 'LIMIT takes a whole number'],
    ['SELECT * FROM t ORDER BY 1', 'ORDER BY takes field names, not positions'],
    ['SELECT * FROM t ORDER BY a NULLS FIRST', 'NULLS FIRST/LAST is not supported'],
    ['SELECT * FROM t WHERE a = b', 'Compare a field with a value, not with another field (b)'],
    ['SELECT * FROM t WHERE a = "x"', 'not with another field (x); strings take single quotes'],
    ['SELECT * FROM t WHERE 1 = 1', 'A condition must name a field'],
    ['SELECT * FROM t WHERE a', 'A condition needs a comparison: write a = true'],
    ['SELECT * FROM t WHERE a < true', 'Operator < does not compare booleans'],
    ['SELECT * FROM t WHERE a BETWEEN false AND true', 'BETWEEN does not compare booleans'],
    ['SELECT * FROM t WHERE a IS TRUE', 'IS takes only NULL'],
    ['SELECT * FROM t WHERE a LIKE 1', 'LIKE needs a string pattern'],
    ["SELECT * FROM t WHERE a LIKE 'x' ESCAPE '!'", 'ESCAPE is not supported'],
    ['SELECT * FROM t WHERE a + 1 = 2', 'Operator + is not supported here'],
    ["SELECT * FROM t WHERE a = 'x\\'y'", "A quote inside a string is written twice ('')"],
    ['SELECT * FROM t WHERE a = 1e999', 'Number 1e999 is out of range'],
    ['SELECT * FROM t WHERE a = -?', 'Operator - is not supported here'],
    ["SELECT * FROM t WHERE a = 'nul\u0000'", 'The statement contains a NUL character'],
    ['SELECT * FROM t WHERE a =', 'Syntax error at the end of the statement at position 26'],
    ['SELECT * FROM t WHERE a = ＇x＇', 'Syntax error near "＇x＇" at position 27'],
    [`SELECT * FROM t WHERE ${'NOT '.repeat(80)}a = 1`, 'Conditions nest at most 64 levels deep'],
  ])('refuses %j: %s', (sql, message) => {
    const result = parseSql(sql);
    expect(result).toMatchObject({ code: 'invalid_sql' });
    expect((result as { message: string }).message).toContain(message);
  });

  it.each([
    ['a = ?', [], 'Parameter ? number 1 has no value: params has 0 values'],
    ['a = ?', [1, 2], 'The statement has 1 "?" parameter but params has 2 values'],
    ['a = $2', [1, 2], 'params has 2 values but $1 is never used'],
    ['a = $3', [1], 'Parameter $3 has no value'],
    ['a = $0', [1], '$0 is not a parameter'],
    ['a = ? AND b = $1', [1], 'Use either ? or $n parameters in one statement, not both'],
    ['a = ?', ['x\u0000'], 'params[0] contains a NUL character'],
    ['a = ?', ['\ud800'], 'params[0] is not well-formed Unicode'],
    ['a = ?', [{}], 'params[0] must be a string, number, boolean or null'],
    ['a < ?', [true], 'Operator < does not compare booleans'],
    ['a LIKE ?', ['x\\'], 'ends with a lone backslash'],
  ])('refuses %s with params %j', (condition, params, message) => {
    const result = parseSql(`SELECT * FROM t WHERE ${condition}`, params);
    expect(result).toMatchObject({ code: 'invalid_sql' });
    expect((result as { message: string }).message).toContain(message);
  });

  it('reports the position in details', () => {
    expect(parseSql('SELECT * FROM t WHERE x = lower(y)')).toMatchObject({ details: { position: 27 } });
  });
});
