import { describe, expect, it } from 'vitest';
import {
  allowlistUpdate,
  checkAllowlistAccess,
  isAddressAllowed,
  parseAllowlistEntry,
} from './ip-allowlist.js';

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

describe('checkAllowlistAccess', () => {
  it('blocks an address the list leaves out with 403 ip_blocked, naming it', () => {
    expect(checkAllowlistAccess('203.0.113.9', [])).toBeNull();
    expect(checkAllowlistAccess('::ffff:203.0.113.9', ['203.0.113.0/24'])).toBeNull();
    expect(checkAllowlistAccess('198.51.100.1', ['203.0.113.0/24'])).toEqual({
      code: 'ip_blocked',
      message: "Requests from 198.51.100.1 are not in this account's IP allowlist",
      details: { ip: '198.51.100.1' },
    });
  });
});

describe('allowlistUpdate', () => {
  it('trims the entries and drops repeats, in their order', () => {
    expect(allowlistUpdate([' 203.0.113.5', '10.0.0.0/8 ', '203.0.113.5'], '10.1.2.3')).toEqual([
      '203.0.113.5',
      '10.0.0.0/8',
    ]);
  });

  it('takes an empty list, which lifts the restriction', () => {
    expect(allowlistUpdate([], '203.0.113.9')).toEqual([]);
  });

  it('refuses a list that would lock out the address the change comes from', () => {
    expect(allowlistUpdate(['203.0.113.5'], '198.51.100.1')).toEqual({
      code: 'validation_error',
      message:
        'Invalid body field "entries": the list does not include 198.51.100.1, the address of this request; add it, or you would lock yourself out',
      details: { in: 'body', field: 'entries', clientIp: '198.51.100.1' },
    });
  });
});
