import { describe, expect, it } from 'vitest';
import type { SqlCondition } from '../schemas/sql.js';
import { evaluate, matches } from './evaluate.js';

const doc = {
  _id: 'd1',
  n: 5,
  s: 'abc',
  b: true,
  z: null,
  arr: [5],
  obj: { n: 5 },
  _createdAt: 'x',
  _updatedAt: 'x',
};
const test = (c: SqlCondition) => matches(c, doc);

describe('matches: two-valued logic', () => {
  it.each<[SqlCondition, boolean]>([
    [{ op: 'eq', path: ['n'], value: 5 }, true],
    [{ op: 'eq', path: ['n'], value: '5' }, false],
    [{ op: 'ne', path: ['n'], value: '5' }, true],
    [{ op: 'gt', path: ['s'], value: 'abb' }, true],
    [{ op: 'lt', path: ['s'], value: 5 }, false],
    [{ op: 'gte', path: ['s'], value: 5 }, false],
    [{ op: 'eq', path: ['missing'], value: 5 }, false],
    [{ op: 'ne', path: ['missing'], value: 5 }, true],
    [{ op: 'eq', path: ['z'], value: null }, false],
    [{ op: 'ne', path: ['z'], value: null }, true],
    [{ op: 'eq', path: ['b'], value: true }, true],
    [{ op: 'eq', path: ['arr'], value: 5 }, false],
    [{ op: 'eq', path: ['obj', 'n'], value: 5 }, true],
    [{ op: 'eq', path: ['arr', '0'], value: 5 }, false],
    [{ op: 'isNull', path: ['z'] }, true],
    [{ op: 'isNull', path: ['missing'] }, true],
    [{ op: 'isNull', path: ['_id', 'x'] }, true],
    [{ op: 'isNotNull', path: ['arr'] }, true],
    [{ op: 'in', path: ['n'], values: [1, 5] }, true],
    [{ op: 'nin', path: ['n'], values: [null, '5'] }, true],
    [{ op: 'between', path: ['n'], values: [5, 5] }, true],
    [{ op: 'between', path: ['n'], values: [1, 'z'] }, false],
    [{ op: 'like', path: ['s'], value: 'a_c' }, true],
    [{ op: 'like', path: ['s'], value: 'A%' }, false],
    [{ op: 'notLike', path: ['n'], value: '%' }, true],
    [{ op: 'not', condition: { op: 'eq', path: ['missing'], value: 1 } }, true],
  ])('%j is %s', (condition, expected) => {
    expect(test(condition)).toBe(expected);
  });
});

describe('evaluate', () => {
  const docs = [
    { _id: 'b', n: 2, _createdAt: 'x', _updatedAt: 'x' },
    { _id: 'a', n: '1', _createdAt: 'x', _updatedAt: 'x' },
    { _id: 'c', _createdAt: 'x', _updatedAt: 'x' },
  ];

  it('sorts in the list order, pages, and projects with null for missing fields', () => {
    const rows = evaluate(
      {
        collection: 't',
        select: { kind: 'fields', fields: [{ path: ['n'], as: 'v' }] },
        sort: [{ path: ['n'], descending: true }],
        limit: 2,
        skip: 0,
      },
      docs,
    );
    expect(rows).toEqual([{ v: '1' }, { v: 2 }]);
    expect(
      evaluate({ collection: 't', select: { kind: 'all' }, sort: [], limit: 100, skip: 2 }, docs),
    ).toEqual([docs[2]]);
  });

  it('counts every match, whatever limit says', () => {
    expect(
      evaluate(
        {
          collection: 't',
          select: { kind: 'count' },
          where: { op: 'isNull', path: ['n'] },
          sort: [],
          limit: 0,
          skip: 0,
        },
        docs,
      ),
    ).toEqual([{ count: 1 }]);
  });

  it('keeps an alias "__proto__" as an ordinary key', () => {
    const [row] = evaluate(
      {
        collection: 't',
        select: { kind: 'fields', fields: [{ path: ['n'], as: '__proto__' }] },
        sort: [],
        limit: 1,
        skip: 0,
      },
      docs,
    );
    expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
    expect(JSON.stringify(row)).toBe('{"__proto__":"1"}');
  });
});

describe('evaluate: groups', () => {
  const docs = [
    { _id: 'a', s: 'x', n: 2, _createdAt: 't', _updatedAt: 't' },
    { _id: 'b', s: 'x', n: '300', _createdAt: 't', _updatedAt: 't' },
    { _id: 'c', s: ['x'], n: true, _createdAt: 't', _updatedAt: 't' },
    { _id: 'd', s: 1, n: 0.5, _createdAt: 't', _updatedAt: 't' },
    { _id: 'e', s: '1', _createdAt: 't', _updatedAt: 't' },
  ];
  const columns = [
    { path: ['s'], as: 's' },
    { aggregate: { fn: 'count' as const }, as: 'all' },
    { aggregate: { fn: 'count' as const, path: ['n'] }, as: 'values' },
    { aggregate: { fn: 'sum' as const, path: ['n'] }, as: 'sum' },
    { aggregate: { fn: 'min' as const, path: ['n'] }, as: 'min' },
    { aggregate: { fn: 'max' as const, path: ['n'] }, as: 'max' },
  ];
  const grouped = (extra: object = {}) =>
    evaluate(
      {
        collection: 't',
        select: { kind: 'groups', columns },
        groupBy: [['s']],
        sort: [],
        limit: 100,
        skip: 0,
        ...extra,
      },
      docs,
    );

  it('keeps types apart, puts arrays with the missing values, adds numbers only, and orders MIN/MAX by type', () => {
    expect(grouped()).toEqual([
      { s: null, all: 1, values: 1, sum: null, min: true, max: true },
      { s: 1, all: 1, values: 1, sum: 0.5, min: 0.5, max: 0.5 },
      { s: '1', all: 1, values: 0, sum: null, min: null, max: null },
      { s: 'x', all: 2, values: 2, sum: 2, min: 2, max: '300' },
    ]);
  });

  it('filters groups with HAVING and sorts by an aggregate, ties by the grouped fields', () => {
    const rows = grouped({
      having: { op: 'gte', aggregate: { fn: 'count' }, value: 1 },
      sort: [{ aggregate: { fn: 'count' }, descending: true }],
      limit: 2,
    });
    expect(rows.map((r) => r.s)).toEqual(['x', '1']);
  });

  it('answers one row of aggregates over no documents', () => {
    expect(
      evaluate(
        {
          collection: 't',
          select: { kind: 'groups', columns: columns.slice(1) },
          where: { op: 'eq', path: ['nope'], value: 1 },
          sort: [],
          limit: 100,
          skip: 0,
        },
        docs,
      ),
    ).toEqual([{ all: 0, values: 0, sum: null, min: null, max: null }]);
  });
});
