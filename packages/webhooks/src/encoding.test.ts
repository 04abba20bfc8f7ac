import { describe, expect, it } from 'vitest';
import { fromBase64, hexEquals, textEquals, toBase64, toHex, utf8 } from './encoding.js';

describe('encoding', () => {
  it('writes lowercase hex and padded base64 of any bytes', () => {
    const bytes = Uint8Array.from([0, 1, 0x7f, 0x80, 0xfe, 0xff]);
    expect(toHex(bytes)).toBe('00017f80feff');
    expect(toBase64(bytes)).toBe('AAF/gP7/');
    expect(toBase64(utf8('é'))).toBe('w6k=');
  });

  it('reads only canonical padded base64', () => {
    expect(fromBase64('w6k=')).toEqual(utf8('é'));
    expect(fromBase64('')).toEqual(new Uint8Array());
    for (const text of ['w6k', 'w6k==', 'w6-_', 'w6k=\n', ' w6k=']) expect(fromBase64(text)).toBeNull();
  });

  it('compares a received hex digest in either case, and text exactly', () => {
    const expected = 'ab'.repeat(32);
    expect(hexEquals(expected, 'AB'.repeat(32))).toBe(true);
    expect(hexEquals(expected, `${'ab'.repeat(31)}ac`)).toBe(false);
    expect(hexEquals(expected, 'ab')).toBe(false);
    expect(textEquals('v1,abc', 'v1,abc')).toBe(true);
    expect(textEquals('v1,abc', 'v1,ABC')).toBe(false);
    expect(textEquals('v1,abc', 'v1,ab')).toBe(false);
  });
});
