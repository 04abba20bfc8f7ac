import { describe, expect, it } from 'vitest';
import { isAddressAllowed, parseAllowlistEntry } from './ip-allowlist.js';

describe('the IP allowlist', () => {
  it('lets every address through when the list is empty', () => {
    expect(isAddressAllowed('203.0.113.9', [])).toBe(true);
  });

  it.each([
    ['203.0.113.5', ['203.0.113.5'], true],
    ['203.0.113.6', ['203.0.113.5'], false],
    ['203.0.113.200', ['203.0.113.0/24'], true],
    ['203.0.114.1', ['203.0.113.0/24'], false],
    ['2001:db8::5', ['2001:db8::/32'], true],
    ['2001:db9::5', ['2001:db8::/32'], false],
    ['2001:db8::5', ['2001:db8::5'], true],
    ['2001:DB8:0:0::5', ['2001:db8::5'], true],
    // A dual-stack socket reports IPv4 clients as IPv4-mapped IPv6; they match IPv4 entries.
    ['::ffff:203.0.113.5', ['203.0.113.0/24'], true],
    ['203.0.113.5', ['::ffff:203.0.113.0/120'], true],
    ['203.0.113.5', ['2001:db8::/32'], false],
    ['2001:db8::5', ['203.0.113.0/24'], false],
    ['not an address', ['203.0.113.0/24'], false],
  ])('%s against %j is %s', (address, entries, allowed) => {
    expect(isAddressAllowed(address, entries)).toBe(allowed);
  });

  it('parses addresses and ranges and refuses anything else', () => {
    expect(parseAllowlistEntry('10.0.0.0/8')?.[1]).toBe(8);
    expect(parseAllowlistEntry('10.0.0.1')?.[1]).toBe(32);
    expect(parseAllowlistEntry('::1')?.[1]).toBe(128);
    expect(parseAllowlistEntry('10.0.0.0/33')).toBeNull();
    expect(parseAllowlistEntry('example.com')).toBeNull();
  });
});
