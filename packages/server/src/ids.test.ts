import { describe, expect, it } from 'vitest';
import { ulid } from './ids.js';

describe('ulid', () => {
  it('makes distinct ids in creation order, across many refills of the random pool', () => {
    const ids = Array.from({ length: 5000 }, () => ulid());
    for (const id of ids) expect(id).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
  });

  it('draws random parts that use the whole alphabet', () => {
    // Ids of later milliseconds get fresh random parts (ids of one millisecond count up from the first one's).
    const seen = new Set<string>();
    const later = Date.now() + 60_000;
    for (let step = 0; step < 2000; step++) seen.add(ulid(later + step).at(-1)!);
    expect(seen.size).toBe(32);
  });
});
