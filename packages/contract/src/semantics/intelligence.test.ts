import { describe, expect, it } from 'vitest';
import type { Dataset } from '../schemas/intelligence.js';
import { checkModel, fieldNames, keepFields, splitRows, summarize } from './intelligence.js';

const rows = Array.from({ length: 40 }, (_, i) => ({
  _id: `r${i}`,
  n: i,
  flag: i % 2 === 0,
  color: ['red', 'green', 'blue'][i % 3],
  label: `unique ${i}`,
  nested: { a: 1 },
  sometimes: i % 4 === 0 ? null : i,
}));

describe('field inference', () => {
  it('types numbers, booleans, categories and strings, and leaves out _id and objects', () => {
    const names = fieldNames(rows);
    expect(names).toEqual(['n', 'flag', 'color', 'label', 'sometimes']);
    const types = Object.fromEntries(names.map((name) => [name, summarize(name, rows).type]));
    expect(types).toEqual({
      n: 'number',
      flag: 'boolean',
      color: 'category',
      label: 'string',
      sometimes: 'number',
    });
  });

  it('counts missing values and summarizes numbers', () => {
    expect(summarize('sometimes', rows)).toMatchObject({ count: 30, missing: 10, min: 1, max: 39 });
    expect(summarize('n', rows)).toMatchObject({ mean: 19.5, distinct: 40 });
    expect(summarize('color', rows).top?.[0]).toEqual({ value: 'red', count: 14 });
  });

  it('keeps only the fields, with missing values as null', () => {
    const fields = ['n', 'sometimes'].map((name) => summarize(name, rows));
    expect(keepFields(rows.slice(0, 1), fields)).toEqual([{ n: 0, sometimes: null }]);
  });
});

describe('the seeded split', () => {
  it('is the same for a seed, holds out the fraction, and covers every row once', () => {
    const a = splitRows(100, 0.2, 5);
    expect(splitRows(100, 0.2, 5)).toEqual(a);
    expect(a.test).toHaveLength(20);
    expect([...a.test, ...a.train].sort((x, y) => x - y)).toEqual(Array.from({ length: 100 }, (_, i) => i));
    expect(splitRows(100, 0.2, 6).test).not.toEqual(a.test);
  });
});

describe('checkModel', () => {
  const names = fieldNames(rows);
  const dataset: Dataset = {
    _id: 'ds_1',
    clusterId: 'c',
    name: 'd',
    collection: 'c',
    sql: null,
    status: 'ready',
    rowCount: rows.length,
    truncated: false,
    fields: names.map((name) => summarize(name, rows)),
    failure: null,
    createdAt: new Date().toISOString(),
    completedAt: null,
  };
  const codeOf = (result: ReturnType<typeof checkModel>) =>
    'violation' in result ? result.violation.code : 'ok';

  it('picks the default algorithm and the features', () => {
    expect(checkModel({ name: 'm', datasetId: 'ds_1', task: 'regression', target: 'n' }, dataset)).toEqual({
      algorithm: 'linear',
      target: 'n',
      features: ['flag', 'color', 'label', 'sometimes'],
    });
  });

  it('refuses what cannot be trained', () => {
    const base = { name: 'm', datasetId: 'ds_1' };
    expect(codeOf(checkModel({ ...base, task: 'regression', target: 'color' }, dataset))).toBe(
      'validation_error',
    );
    expect(codeOf(checkModel({ ...base, task: 'classification', target: 'label' }, dataset))).toBe(
      'validation_error',
    );
    expect(codeOf(checkModel({ ...base, task: 'classification', target: 'n' }, dataset))).toBe(
      'validation_error',
    );
    expect(codeOf(checkModel({ ...base, task: 'classification', target: 'color' }, dataset))).toBe('ok');
    expect(codeOf(checkModel({ ...base, task: 'clustering', target: 'n' }, dataset))).toBe(
      'validation_error',
    );
    expect(codeOf(checkModel({ ...base, task: 'regression', target: 'n', features: ['x'] }, dataset))).toBe(
      'validation_error',
    );
    expect(codeOf(checkModel({ ...base, task: 'regression' }, dataset))).toBe('validation_error');
    expect(
      codeOf(checkModel({ ...base, task: 'regression', target: 'n' }, { ...dataset, status: 'building' })),
    ).toBe('conflict');
    const few = { ...dataset, rowCount: 5, fields: dataset.fields.map((f) => ({ ...f, count: 5 })) };
    expect(codeOf(checkModel({ ...base, task: 'regression', target: 'n' }, few))).toBe('validation_error');
  });
});
