import { describe, expect, it } from 'vitest';
import { createIdGenerator, randomToken } from './ids.js';

const CROCKFORD_ID = /^[0-9A-HJKMNP-TV-Z]{26}$/;

describe('createIdGenerator', () => {
  it('makes 26-character Crockford base32 ids whose first 10 characters encode the time', () => {
    const id = createIdGenerator(() => 1_700_000_000_000)();
    expect(id).toMatch(CROCKFORD_ID);
    expect(id.slice(0, 10)).toBe('01HF7YAT00');
  });

  it('keeps ids increasing within one millisecond', () => {
    const next = createIdGenerator(() => 42);
    const ids = Array.from({ length: 1000 }, next);
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(1000);
  });

  it('keeps ids increasing when the clock steps back', () => {
    let now = 2_000;
    const next = createIdGenerator(() => now);
    const first = next();
    now = 1_000;
    const second = next();
    expect(second > first).toBe(true);
    expect(second.slice(0, 10)).toBe(first.slice(0, 10));
  });

  it('orders ids of later milliseconds after earlier ones', () => {
    let now = 1_000;
    const next = createIdGenerator(() => now);
    const earlier = next();
    now = 1_001;
    expect(next() > earlier).toBe(true);
  });
});

describe('randomToken', () => {
  it('makes lowercase base32 tokens of the asked length', () => {
    expect(randomToken(24)).toMatch(/^[0-9a-hjkmnp-tv-z]{24}$/);
    expect(randomToken(24)).not.toBe(randomToken(24));
  });
});
