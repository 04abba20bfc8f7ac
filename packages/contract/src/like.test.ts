import { describe, expect, it } from 'vitest';
import { likeMatches, likeTokens } from './like.js';

describe('likeMatches', () => {
  it.each([
    ['abc', 'abc', true],
    ['abc', 'ABC', false],
    ['abc', 'a%', true],
    ['abc', '%c', true],
    ['abc', '%b%', true],
    ['abc', 'a_c', true],
    ['abc', 'a_', false],
    ['', '%', true],
    ['', '_', false],
    ['😀x', '_x', true],
    ['a%b', 'a\\%b', true],
    ['axb', 'a\\%b', false],
    ['a_b', 'a\\_b', true],
    ['a\\b', 'a\\\\b', true],
    ['a*b', 'a*b', true],
    ['axb', 'a*b', false],
    ['aaaaaaaaaaaaaaaaaaaaaaaaaaaaab', '%a%a%a%a%a%a%a%a%c', false],
  ])('%j LIKE %j is %s', (value, pattern, expected) => {
    expect(likeMatches(value, pattern)).toBe(expected);
  });

  it('refuses a pattern that ends with a lone backslash', () => {
    expect(likeTokens('a\\')).toBeNull();
    expect(likeMatches('a\\', 'a\\')).toBe(false);
  });
});
