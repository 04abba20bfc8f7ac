import { describe, expect, it } from 'vitest';
import { checkShape, inferShape, schemaProblem } from './schema-shapes.js';

describe('checkShape', () => {
  const schema = {
    type: 'object',
    required: ['email'],
    properties: {
      email: { type: 'string' },
      age: { type: 'number' },
      tags: { type: 'array', items: { type: 'string' } },
    },
  };

  it('passes a matching document and whole numbers where numbers are asked for', () => {
    expect(checkShape({ email: 'a@example.com', age: 3, tags: ['x'] }, schema)).toEqual([]);
  });

  it('names each failing value by its JSON Pointer', () => {
    expect(checkShape({ age: 'old', tags: ['x', 1] }, schema)).toEqual([
      { path: '/email', message: "must have required property 'email'" },
      { path: '/age', message: 'must be number' },
      { path: '/tags/1', message: 'must be string' },
    ]);
  });
});

describe('inferShape', () => {
  it('proposes the types seen and requires the fields every document has', () => {
    expect(
      inferShape([
        { email: 'a', n: 1 },
        { email: 'b', n: 1.5, note: null },
      ]),
    ).toEqual({
      type: 'object',
      properties: { email: { type: 'string' }, n: { type: 'number' }, note: { type: 'null' } },
      required: ['email', 'n'],
    });
  });

  it('proposes a bare object for no documents', () => {
    expect(inferShape([])).toEqual({ type: 'object' });
  });
});

describe('schemaProblem', () => {
  it('accepts the keywords the check reads in their JSON Schema form', () => {
    expect(
      schemaProblem({ type: ['object', 'null'], required: ['a'], properties: { a: { type: 'string' } } }),
    ).toBe(null);
  });

  it('names a keyword of the wrong form', () => {
    expect(schemaProblem({ type: 'nope' })).toBe('/type must be a JSON type');
    expect(schemaProblem({ properties: { a: { required: 'a' } } })).toBe(
      '/properties/a/required must be array of strings',
    );
  });
});
