import { describe, expect, it } from 'vitest';
import {
  checkCollectionName,
  checkDocumentBody,
  compareJsonValues,
  mergePatch,
  parseSort,
} from './documents.js';

describe('mergePatch', () => {
  // The examples of RFC 7396, appendix A.
  it.each([
    [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
    [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
    [{ a: 'b' }, { a: null }, {}],
    [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
    [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
    [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
    [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
    [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
    [
      ['a', 'b'],
      ['c', 'd'],
      ['c', 'd'],
    ],
    [{ a: 'b' }, ['c'], ['c']],
    [{ a: 'foo' }, null, null],
    [{ a: 'foo' }, 'bar', 'bar'],
    [{ e: null }, { a: 1 }, { e: null, a: 1 }],
    [[1, 2], { a: 'b', c: null }, { a: 'b' }],
    [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
  ])('patches %j with %j into %j', (target, patch, expected) => {
    const before = JSON.stringify(target);
    expect(mergePatch(target, patch)).toEqual(expected);
    expect(JSON.stringify(target)).toBe(before);
  });
});

it('keeps a "__proto__" key of a patch as an ordinary field', () => {
  const patched = mergePatch({ a: 1 }, JSON.parse('{"__proto__":{"polluted":true}}')) as Record<
    string,
    unknown
  >;
  expect(Object.getPrototypeOf(patched)).toBe(Object.prototype);
  expect(JSON.stringify(patched)).toBe('{"a":1,"__proto__":{"polluted":true}}');
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
});

describe('checkDocumentBody', () => {
  it('accepts objects and a valid _id on create only', () => {
    expect(checkDocumentBody({ a: 1 }, { allowId: false })).toBeNull();
    expect(checkDocumentBody({ _id: 'x', a: 1 }, { allowId: true })).toBeNull();
    expect(checkDocumentBody({ _id: 'x' }, { allowId: false })?.code).toBe('invalid_body');
  });

  it.each([[null], [[]], ['s'], [1]])('refuses %j as invalid_body', (body) => {
    expect(checkDocumentBody(body, { allowId: true })?.code).toBe('invalid_body');
  });

  it('names the reserved field it refuses', () => {
    expect(checkDocumentBody({ _updatedAt: 1 }, { allowId: true })).toMatchObject({
      code: 'invalid_body',
      details: { field: '_updatedAt' },
    });
  });
});

describe('collection names', () => {
  it.each([
    ['orders', null],
    ['A-b_9', null],
    ['sql', 'reserved_collection'],
    ['imports', 'reserved_collection'],
    ['9lives', 'validation_error'],
    ['', 'validation_error'],
  ])('%s → %s', (name, code) => {
    expect(checkCollectionName(name)?.code ?? null).toBe(code);
  });
});

describe('sorting', () => {
  it('parses fields, dotted paths and directions', () => {
    expect(parseSort('-a,b.c')).toEqual([
      { path: ['a'], descending: true },
      { path: ['b', 'c'], descending: false },
    ]);
    expect(parseSort(undefined)).toEqual([]);
    expect(parseSort('a b')).toMatchObject({ code: 'validation_error' });
  });

  it('orders types: missing/null < booleans < numbers < strings by code point < arrays and objects, which tie', () => {
    const values = [{ a: 1 }, 'b', '😀', '\uffff', 'a', 10, -1, true, false, null, [0]];
    expect([...values].sort(compareJsonValues)).toEqual([
      null,
      false,
      true,
      -1,
      10,
      'a',
      'b',
      '\uffff',
      '😀',
      { a: 1 },
      [0],
    ]);
    expect(compareJsonValues([1], { a: 1 })).toBe(0);
    expect(compareJsonValues(undefined, null)).toBe(0);
    expect(compareJsonValues(undefined, false)).toBe(-1);
  });
});
