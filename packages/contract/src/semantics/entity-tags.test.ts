import { describe, expect, it } from 'vitest';
import { ifMatchHolds, ifNoneMatchHolds, listedEntityTags } from './entity-tags.js';

describe('entity tags', () => {
  it('lists the tags of a header, or any with *', () => {
    expect(listedEntityTags(' * ')).toBe('*');
    expect(listedEntityTags('"a", W/"b",,"c"')).toEqual(['"a"', 'W/"b"', '"c"']);
  });

  it('lets a write go on only for a listed strong tag or *', () => {
    expect(ifMatchHolds('"a", "b"', '"b"')).toBe(true);
    expect(ifMatchHolds('*', '"b"')).toBe(true);
    expect(ifMatchHolds('"a"', '"b"')).toBe(false);
    expect(ifMatchHolds('W/"b"', '"b"')).toBe(false);
    expect(ifMatchHolds('b', '"b"')).toBe(false);
  });

  it('answers a read 304 for a listed tag, weak or strong, or *', () => {
    expect(ifNoneMatchHolds('W/"b"', '"b"')).toBe(true);
    expect(ifNoneMatchHolds('"a", "b"', '"b"')).toBe(true);
    expect(ifNoneMatchHolds('*', '"b"')).toBe(true);
    expect(ifNoneMatchHolds('"a"', '"b"')).toBe(false);
  });
});
