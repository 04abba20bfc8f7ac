import { describe, expect, it } from 'vitest';
import { parseSqlParam } from './sql-params.js';

describe('--param values', () => {
  it.each([
    ['42', 42],
    ['-1.5', -1.5],
    ['1e3', 1000],
    ['true', true],
    ['false', false],
    ['null', null],
    ['"42"', '42'],
    ['"a \\"b\\""', 'a "b"'],
    ['paid', 'paid'],
    ['042', '042'],
    ['12abc', '12abc'],
    ['', ''],
  ])('%j binds %j', (text, value) => {
    expect(parseSqlParam(text)).toEqual(value);
  });

  it('refuses an unclosed quoted string', () => {
    expect(() => parseSqlParam('"abc')).toThrow('starts with a quote but is not a JSON string');
  });
});
