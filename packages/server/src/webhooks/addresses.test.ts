import { describe, expect, it } from 'vitest';
import { classifyAddress, ReceiverPolicy } from './addresses.js';
import type { ResolvedAddress } from './resolver.js';

describe('classifyAddress', () => {
  it.each([
    ['93.184.216.34', 'public'],
    ['2606:2800:220:1:248:1893:25c8:1946', 'public'],
    ['127.0.0.1', 'loopback'],
    ['127.8.9.10', 'loopback'],
    ['::1', 'loopback'],
    ['0.0.0.0', 'loopback'],
    ['::', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'private'],
    ['fc00::1', 'private'],
    ['fd12:3456::1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['fe80::1', 'link-local'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:169.254.169.254', 'link-local'],
    ['::ffff:93.184.216.34', 'public'],
    ['64:ff9b::7f00:1', 'loopback'],
    ['64:ff9b::a00:1', 'private'],
    ['64:ff9b::5db8:d822', 'public'],
    ['::ffff:0:a9fe:a9fe', 'link-local'],
    // IPv4-compatible (::a.b.c.d, deprecated): reserved, whatever IPv4 address it carries.
    ['::169.254.169.254', 'reserved'],
    ['::a9fe:a9fe', 'reserved'],
    ['::127.0.0.1', 'reserved'],
    ['::10.0.0.1', 'reserved'],
    ['::93.184.216.34', 'reserved'],
    ['::0.0.0.2', 'reserved'],
    // Tunnels to an IPv4 host (6to4, Teredo), NAT64 local-use prefixes, and IPv6 outside 2000::/3.
    ['2002:a9fe:a9fe::1', 'reserved'],
    ['2002:5db8:d822::1', 'reserved'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'reserved'],
    ['64:ff9b:1:a9fe:a9:fe00::', 'reserved'],
    ['64:ff9b:1::5db8:d822', 'reserved'],
    ['100::1', 'reserved'],
    ['::1:2:3:4', 'reserved'],
    ['4000::1', 'reserved'],
    ['224.0.0.1', 'reserved'],
    ['255.255.255.255', 'reserved'],
    ['192.0.2.1', 'reserved'],
    ['ff02::1', 'reserved'],
    ['not an address', 'reserved'],
  ])('%s is %s', (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });
});

const resolver =
  (table: Record<string, string[]>) =>
  async (hostname: string): Promise<ResolvedAddress[]> => {
    const addresses = table[hostname];
    if (!addresses)
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({
      address,
      family: address.includes(':') ? (6 as const) : (4 as const),
    }));
  };

const names = resolver({
  'public.test': ['93.184.216.34'],
  'inside.test': ['10.0.0.7'],
  'mixed.test': ['93.184.216.34', '127.0.0.1'],
  'local.test': ['127.0.0.1', '::1'],
  // inet_ntop's form of an IPv4-compatible answer.
  'compat.test': ['::169.254.169.254'],
});

describe('ReceiverPolicy', () => {
  const strict = new ReceiverPolicy({ allowPrivate: false, allowLoopback: false }, names);
  const development = new ReceiverPolicy({ allowPrivate: false, allowLoopback: true }, names);
  const internal = new ReceiverPolicy({ allowPrivate: true, allowLoopback: false }, names);

  it('accepts public addresses and names that resolve only to them', async () => {
    expect(await strict.check('https://93.184.216.34/hook')).toBeNull();
    expect(await strict.check('https://public.test/hook')).toBeNull();
  });

  it('refuses loopback, private and link-local receivers by default, literal or by name', async () => {
    for (const url of [
      'http://127.0.0.1:3000/hook',
      'http://[::1]/hook',
      'http://[::ffff:127.0.0.1]/hook',
      'http://0.0.0.0/hook',
      'http://10.0.0.1/hook',
      'http://169.254.169.254/latest/meta-data',
      'http://[fe80::1]/hook',
      'http://[::ffff:a9fe:a9fe]/latest/meta-data',
      'http://inside.test/hook',
      'http://local.test/hook',
      'http://mixed.test/hook',
    ]) {
      expect(await strict.check(url), url).toMatch(/is a (loopback|private|link-local) address/);
    }
  });

  it('refuses reserved ranges whatever is allowed', async () => {
    expect(await internal.check('http://224.0.0.1/hook')).toMatch(/reserved/);
    expect(await internal.check('http://192.0.2.10/hook')).toMatch(/reserved/);
    // IPv4-compatible IPv6: the URL parser writes it as hex (::a9fe:a9fe), refused as reserved all the same.
    expect(await strict.check('http://[::169.254.169.254]/latest/meta-data')).toBe(
      '::a9fe:a9fe is a reserved address',
    );
    expect(await internal.check('http://[::169.254.169.254]/latest/meta-data')).toMatch(/reserved/);
    expect(await internal.check('http://[::127.0.0.1]/hook')).toMatch(/reserved/);
    expect(await internal.check('http://compat.test/hook')).toBe(
      'compat.test resolves to ::169.254.169.254 is a reserved address',
    );
    expect(await strict.check('http://[2002:a9fe:a9fe::1]/hook')).toMatch(/reserved/);
    expect(() => strict.checkLiteral(new URL('http://[::169.254.169.254]/x'))).toThrow(/reserved/);
  });

  it('allows loopback alone in development, and every internal range when private is allowed', async () => {
    expect(await development.check('http://127.0.0.1:3000/hook')).toBeNull();
    expect(await development.check('http://local.test/hook')).toBeNull();
    expect(await development.check('http://10.0.0.1/hook')).toMatch(/DATAPLATFORM_WEBHOOK_ALLOW_PRIVATE/);
    expect(await internal.check('http://10.0.0.1/hook')).toBeNull();
    expect(await internal.check('http://[fe80::1]/hook')).toBeNull();
    expect(await internal.check('http://127.0.0.1/hook')).toBeNull();
  });

  it('accepts a name that does not resolve yet: it is checked again at each delivery', async () => {
    expect(await strict.check('https://not-yet.test/hook')).toBeNull();
  });

  it('vets literal addresses before a delivery connects', () => {
    expect(() => strict.checkLiteral(new URL('http://127.0.0.1/x'))).toThrow(/receiver address refused/);
    expect(() => strict.checkLiteral(new URL('http://[::1]/x'))).toThrow(/receiver address refused/);
    expect(() => strict.checkLiteral(new URL('http://93.184.216.34/x'))).not.toThrow();
  });
});
