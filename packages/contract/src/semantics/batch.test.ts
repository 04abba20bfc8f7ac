import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BatchRequest } from '../schemas/batch.js';
import { effectiveScopes } from '../scopes.js';
import { checkBatchOperation, isWellFormedBatch, missingBatchScope, parseBatchRequest } from './batch.js';

const ok = { op: 'get', collection: 'c', id: 'a' };

describe('parseBatchRequest', () => {
  it('accepts a well-formed batch, defaults transaction to false and keeps the caller’s objects', () => {
    const operations = [{ op: 'insert', collection: 'c', data: { a: 1 } }, ok];
    const parsed = parseBatchRequest({ operations });
    expect(parsed).toEqual({ operations, transaction: false });
    expect('operations' in parsed && parsed.operations[0]).toBe(operations[0]);
  });

  it.each([
    ['not an object', [ok], {}],
    ['no operations', {}, { field: 'operations' }],
    ['an empty list', { operations: [] }, { field: 'operations' }],
    [
      'a transaction that is not a boolean',
      { operations: [ok], transaction: 'yes' },
      { field: 'transaction' },
    ],
    ['an unknown top-level field', { operations: [ok], atomic: true }, { field: 'atomic' }],
    ['1001 operations', { operations: Array(1001).fill(ok) }, { index: 1000, limit: 1000 }],
    ['an unknown op', { operations: [ok, { op: 'upsert', collection: 'c' }] }, { index: 1, field: 'op' }],
    ['a missing id', { operations: [ok, ok, { op: 'delete', collection: 'c' }] }, { index: 2, field: 'id' }],
    [
      'a missing data',
      { operations: [{ op: 'patch', collection: 'c', id: 'a' }] },
      { index: 0, field: 'data' },
    ],
    ['data on a get', { operations: [{ ...ok, data: {} }] }, { index: 0, field: 'data' }],
    ['data that is an array', { operations: [{ op: 'insert', collection: 'c', data: [1] }] }, { index: 0 }],
    ['data that is null', { operations: [{ op: 'insert', collection: 'c', data: null }] }, { index: 0 }],
    [
      'a collection that is not a string',
      { operations: [{ op: 'get', collection: 1, id: 'a' }] },
      { index: 0 },
    ],
    ['an operation that is not an object', { operations: [ok, 'get'] }, { index: 1 }],
    ['an unknown operation field', { operations: [{ ...ok, filter: {} }] }, { index: 0, field: 'filter' }],
  ])('refuses %s with invalid_batch', (_name, body, details) => {
    const parsed = parseBatchRequest(body) as { code: string; details?: object };
    expect(parsed.code).toBe('invalid_batch');
    expect(parsed.details ?? {}).toMatchObject(details);
  });

  it('names the first wrong operation even when a later one fails an earlier check', () => {
    const body = { operations: [ok, ok, { op: 'get', collection: 'c' }, { op: 'nope' }] };
    expect(parseBatchRequest(body)).toMatchObject({ details: { index: 2, field: 'id' } });
  });
});

describe('checkBatchOperation', () => {
  it.each([
    [{ op: 'get', collection: '9x', id: 'a' }, 'validation_error'],
    [{ op: 'get', collection: 'sql', id: 'a' }, 'reserved_collection'],
    [{ op: 'get', collection: 'c', id: 'a/b' }, 'validation_error'],
    [{ op: 'insert', collection: 'c', data: { _secret: 1 } }, 'invalid_body'],
    [{ op: 'insert', collection: 'c', data: { _id: 5 } }, 'validation_error'],
    [{ op: 'insert', collection: 'c', id: 'a', data: { _id: 'b' } }, 'validation_error'],
    [{ op: 'update', collection: 'c', id: 'a', data: { _id: 'a' } }, 'invalid_body'],
    [{ op: 'patch', collection: 'c', id: 'a', data: { _createdAt: 'x' } }, 'invalid_body'],
  ] as const)('fails %j with %s', (operation, code) => {
    expect(checkBatchOperation(operation)?.code).toBe(code);
  });

  it('passes operations the single-document routes would accept', () => {
    expect(checkBatchOperation({ op: 'insert', collection: 'c', id: 'a', data: { _id: 'a' } })).toBeNull();
    expect(checkBatchOperation({ op: 'patch', collection: 'c', id: 'a', data: { x: null } })).toBeNull();
    expect(checkBatchOperation({ op: 'delete', collection: 'c', id: 'a' })).toBeNull();
  });
});

describe('missingBatchScope', () => {
  const ops = [{ op: 'get' }, { op: 'insert' }] as const;
  it('names the first operation the scopes do not cover', () => {
    expect(missingBatchScope(ops, effectiveScopes(['data:read']))).toEqual({
      index: 1,
      required: ['data:write'],
    });
    expect(missingBatchScope(ops, effectiveScopes(['data:write']))).toMatchObject({ index: 0 });
  });

  it('accepts the database:* aliases', () => {
    expect(missingBatchScope(ops, effectiveScopes(['database:read', 'database:write']))).toBeNull();
  });
});

describe('isWellFormedBatch', () => {
  // Values near the edge of the schema: right and wrong types for every field, extra keys, missing keys.
  const anything = fc.oneof(
    fc.constant(undefined),
    fc.constant(null),
    fc.boolean(),
    fc.integer(),
    fc.string({ maxLength: 3 }),
    fc.constantFrom('insert', 'get', 'update', 'patch', 'delete', 'upsert'),
    fc.array(fc.integer(), { maxLength: 2 }),
    fc.dictionary(fc.string({ maxLength: 3 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }),
  );
  const operation = fc.oneof(
    fc.record(
      { op: anything, collection: anything, id: anything, data: anything, extra: anything },
      { requiredKeys: [] },
    ),
    fc.record({
      op: fc.constantFrom('insert', 'get', 'update', 'patch', 'delete'),
      collection: fc.string({ maxLength: 5 }),
      id: fc.option(fc.string({ maxLength: 5 }), { nil: undefined, freq: 1 }),
      data: fc.option(fc.dictionary(fc.string({ maxLength: 4 }), fc.jsonValue({ maxDepth: 2 })), {
        nil: undefined,
        freq: 1,
      }),
    }),
    anything,
  );
  const body = fc.oneof(
    fc.record(
      { operations: fc.array(operation, { minLength: 1, maxLength: 2 }), transaction: fc.boolean() },
      { requiredKeys: ['operations'] },
    ),
    fc.record(
      {
        operations: fc.oneof(fc.array(operation, { maxLength: 4 }), anything),
        transaction: anything,
        other: anything,
      },
      { requiredKeys: [] },
    ),
    anything,
  );

  it('accepts exactly the bodies the BatchRequest schema accepts', () => {
    fc.assert(
      fc.property(body, (candidate) => {
        expect(isWellFormedBatch(candidate)).toBe(BatchRequest.safeParse(candidate).success);
      }),
      { numRuns: 20_000 },
    );
  });

  it('refuses a data key holding undefined on a kind without data, as the strict schema does', () => {
    const candidate = { operations: [{ op: 'delete', collection: 'c', id: 'x', data: undefined }] };
    expect(BatchRequest.safeParse(candidate).success).toBe(false);
    expect(isWellFormedBatch(candidate)).toBe(false);
  });

  it('accepts the largest batch and refuses one operation more, as the schema does', () => {
    const operations = Array.from({ length: 1000 }, (_, i) => ({
      op: 'insert',
      collection: 'c',
      data: { i },
    }));
    expect(isWellFormedBatch({ operations, transaction: true })).toBe(true);
    expect(isWellFormedBatch({ operations: [...operations, operations[0]] })).toBe(false);
    expect(BatchRequest.safeParse({ operations: [...operations, operations[0]] }).success).toBe(false);
  });
});
