import { describe, expect, it } from 'vitest';
import { checkIdempotencyKey, idempotencySubject } from './idempotency.js';

describe('checkIdempotencyKey', () => {
  it.each([[undefined], [null], ['k'], ['k'.repeat(255)]])('accepts %j', (header) => {
    expect(checkIdempotencyKey(header)).toBeNull();
  });

  it.each([[''], ['k'.repeat(256)], [['a', 'b']]])('refuses %j, naming the header', (header) => {
    expect(checkIdempotencyKey(header)).toEqual({
      code: 'validation_error',
      message: 'Idempotency-Key must be 1 to 255 characters',
      details: { in: 'header', field: 'Idempotency-Key' },
    });
  });
});

describe('idempotencySubject', () => {
  it('tells requests apart by method, path and body', () => {
    const subjects = new Set([
      idempotencySubject('POST', '/a', '{}'),
      idempotencySubject('PUT', '/a', '{}'),
      idempotencySubject('POST', '/b', '{}'),
      idempotencySubject('POST', '/a', '{ }'),
    ]);
    expect(subjects.size).toBe(4);
  });
});
