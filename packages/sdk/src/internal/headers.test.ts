import { describe, expect, it } from 'vitest';
import { applyHeaders, headerOf, toHeaders } from './headers.js';

describe('headers', () => {
  it("reads a header from web Headers and from undici's object, joining repeated values", () => {
    expect(headerOf(new Headers({ 'X-Request-Id': 'r1' }), 'x-request-id')).toBe('r1');
    expect(headerOf({ 'set-cookie': ['a=1', 'b=2'] }, 'set-cookie')).toBe('a=1, b=2');
    expect(headerOf({}, 'x-request-id')).toBeNull();
  });

  it("turns undici's object into Headers, keeping repeated values", () => {
    const headers = toHeaders({ 'x-a': '1', 'x-b': ['2', '3'], 'x-c': undefined });
    expect(headers.get('x-a')).toBe('1');
    expect(headers.get('x-b')).toBe('2, 3');
    expect(headers.has('x-c')).toBe(false);
  });

  it("layers a call's headers over the client's: lower-cased, null removes, undefined keeps", () => {
    const target = { authorization: 'Bearer t', 'x-request-id': 'req_1' };
    applyHeaders(target, { 'X-Request-Id': 'mine', Authorization: null, 'X-Skip': undefined });
    expect(target).toEqual({ 'x-request-id': 'mine' });
  });
});
