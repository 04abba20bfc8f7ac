import { describe, expect, it } from 'vitest';
import { DataPlatformError } from '../core/error.js';
import { queryString, segment } from './utils.js';

describe('segment', () => {
  it('percent-encodes everything that could change the route', () => {
    expect(segment('a/b?c#d e%', 'id')).toBe('a%2Fb%3Fc%23d%20e%25');
  });

  it.each(['', '.', '..'])('refuses %j, which a URL parser would drop or resolve', (value) => {
    expect(() => segment(value, 'document id')).toThrow(DataPlatformError);
  });
});

describe('queryString', () => {
  it('leaves out undefined values and encodes the rest', () => {
    expect(queryString({ limit: 10, skip: undefined, sort: '-a,b.c' })).toBe('?limit=10&sort=-a%2Cb.c');
  });

  it('is empty without values', () => {
    expect(queryString(undefined)).toBe('');
    expect(queryString({ skip: undefined })).toBe('');
  });
});
