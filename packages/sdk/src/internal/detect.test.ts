import { describe, expect, it } from 'vitest';
import { isNode, isNodeBuiltinFetch } from './detect.js';

describe('isNodeBuiltinFetch', () => {
  it("recognises Node's own global fetch", () => {
    expect(isNodeBuiltinFetch(globalThis.fetch)).toBe(true);
  });

  it('rejects a wrapper, a bound copy and a look-alike with the same name', () => {
    const original = globalThis.fetch;
    const wrapper = (input: string, init?: RequestInit) => original(input, init);
    // Same name and parameters as the built-in, but not its body: a patch such as MSW's must not pass.
    const lookAlike = function fetch(input: string, init = undefined) {
      return original(input, init);
    };
    expect(isNodeBuiltinFetch(wrapper)).toBe(false);
    expect(isNodeBuiltinFetch(original.bind(globalThis))).toBe(false);
    expect(isNodeBuiltinFetch(lookAlike)).toBe(false);
  });

  it('rejects values that are not functions', () => {
    expect(isNodeBuiltinFetch(undefined)).toBe(false);
    expect(isNodeBuiltinFetch({})).toBe(false);
  });

  it('reads the source of each function once', () => {
    const fn = () => undefined;
    const original = Function.prototype.toString;
    let reads = 0;
    Function.prototype.toString = function (this: Function) {
      reads++;
      return original.call(this);
    };
    try {
      isNodeBuiltinFetch(fn);
      isNodeBuiltinFetch(fn);
    } finally {
      Function.prototype.toString = original;
    }
    expect(reads).toBe(1);
  });
});

describe('isNode', () => {
  it('is true under Node', () => {
    expect(isNode()).toBe(true);
  });
});
