import { describe, expect, it } from 'vitest';
import { matches } from './evaluate.js';
import { parseWhere } from './where.js';

describe('parseWhere', () => {
  it('reads a condition with its parameters, as the WHERE of the SQL helper', () => {
    const where = parseWhere("(status = $1 AND total > $2) OR name LIKE 'a%'", ['paid', 10]);
    expect('code' in where).toBe(false);
    const condition = where as Exclude<typeof where, { code: string }>;
    expect(matches(condition, { status: 'paid', total: 11 })).toBe(true);
    expect(matches(condition, { status: 'paid', total: 9 })).toBe(false);
    expect(matches(condition, { name: 'ab' })).toBe(true);
  });

  it.each([
    ['', []],
    ['total >', []],
    ['total > 1 ORDER BY total', []],
    ['total > 1 LIMIT 1', []],
    ['total > 1 GROUP BY total', []],
    ['total > 1; DROP TABLE x', []],
    ['total > ?', []],
    ['total > 1', [1]],
    ['total > (SELECT 1)', []],
  ])('refuses %j with params %j as invalid_sql', (text, params) => {
    const where = parseWhere(text, params);
    expect(where).toMatchObject({ code: 'invalid_sql' });
  });

  it('counts positions in the condition itself', () => {
    expect(parseWhere('total >')).toMatchObject({ details: { position: 8 } });
  });
});
