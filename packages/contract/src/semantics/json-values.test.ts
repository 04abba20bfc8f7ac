import { describe, expect, it } from 'vitest';
import { checkJsonNumbers, checkJsonValue, isStorableString, MAX_DOCUMENT_DEPTH } from './json-values.js';

function nested(levels: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < levels; i++) value = i % 2 ? [value] : { a: value };
  return value;
}

describe('checkJsonValue', () => {
  it(`accepts ${MAX_DOCUMENT_DEPTH} levels and refuses one more, naming the limit`, () => {
    expect(checkJsonValue(nested(MAX_DOCUMENT_DEPTH))).toBeNull();
    const violation = checkJsonValue(nested(MAX_DOCUMENT_DEPTH + 1));
    expect(violation).toMatchObject({
      code: 'validation_error',
      details: { reason: 'too_deep', limit: MAX_DOCUMENT_DEPTH },
    });
  });

  it('checks 100,000 levels without recursion', () => {
    expect(checkJsonValue(nested(100_000))?.details).toMatchObject({ reason: 'too_deep' });
    expect(checkJsonValue(nested(100_000), Number.POSITIVE_INFINITY)).toBeNull();
  });

  it.each([
    ['a NUL in a value', { a: { b: 'x\u0000y' } }, 'a.b', 'nul_character'],
    ['a lone high surrogate', { list: ['ok', '\ud800'] }, 'list.1', 'unpaired_surrogate'],
    ['a lone low surrogate at the start', { s: '\udc00abc' }, 's', 'unpaired_surrogate'],
    ['a NUL in a field name', { a: { 'k\u0000': 1 } }, 'a.k\u0000', 'nul_character'],
    ['a surrogate in a field name', { '\ud83d': 1 }, '\ud83d', 'unpaired_surrogate'],
  ])('refuses %s and names the field', (_name, value, field, reason) => {
    expect(checkJsonValue(value)).toMatchObject({ code: 'validation_error', details: { field, reason } });
  });

  it('accepts pairs of surrogates, empty keys and every other value', () => {
    expect(checkJsonValue({ emoji: '😀 \ud83d\ude00', '': [null, true, 0, -1.5, 'x', {}] })).toBeNull();
  });

  it('refuses a number that is not finite', () => {
    expect(checkJsonValue({ n: [Number.POSITIVE_INFINITY] })?.details).toMatchObject({
      field: 'n.0',
      reason: 'number_out_of_range',
    });
  });

  it('tells storable strings apart', () => {
    expect(isStorableString('plain é 😀')).toBe(true);
    expect(isStorableString('a\u0000')).toBe(false);
    expect(isStorableString('\ude00')).toBe(false);
  });
});

describe('checkJsonNumbers', () => {
  it.each([
    ['9007199254740991', null],
    ['-9007199254740991', null],
    ['[9007199254740992]', '9007199254740992'],
    ['{"n":-12345678901234567890}', '-12345678901234567890'],
    ['{"a":1,"b":123456789012345678901234567890}', '123456789012345678901234567890'],
  ])('in %s finds the inexact integer %s', (text, value) => {
    const violation = checkJsonNumbers(text);
    if (value === null) expect(violation).toBeNull();
    else
      expect(violation).toMatchObject({
        code: 'validation_error',
        details: { reason: 'unsafe_integer', value },
      });
  });

  it.each([
    ['{"n":1e400}', '1e400'],
    ['[-2.5E+309]', '-2.5E+309'],
    [`[${'9'.repeat(400)}.0]`, `${'9'.repeat(400)}.0`],
  ])('in %s finds the number out of range %s', (text, value) => {
    expect(checkJsonNumbers(text)).toMatchObject({ details: { reason: 'number_out_of_range', value } });
  });

  it.each([
    '{"s":"12345678901234567890"}',
    '{"s":"a \\" 12345678901234567890"}',
    '{"x":1.2345678901234567890}',
    '{"x":12345678901234567890.5}',
    '{"x":12345678901234567890e0}',
    '{"x":6.02214076e23}',
    '{"x":1e-400,"y":1.7976931348623157e308}',
  ])('leaves strings and decimals alone: %s', (text) => {
    expect(checkJsonNumbers(text)).toBeNull();
  });
});
