import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseHostsFile } from '../src/webhooks/hosts-file.js';
import { ReceiverResolver, type ResolverOptions } from '../src/webhooks/resolver.js';
import { type DnsServer, startDnsServer } from './webhooks/dns-server.js';

/** A clock the test moves, so expiry is decided by the test and never by how fast the machine runs. */
function testClock() {
  let now = 0;
  return {
    now: () => now,
    advance(ms: number) {
      now += ms;
    },
  };
}

describe('parseHostsFile', () => {
  it('reads each address with its names, skipping comments and malformed lines', () => {
    const table = parseHostsFile(
      [
        '# comment',
        '127.0.0.1\tlocalhost',
        '10.0.0.5   billing.internal Billing # trailing comment',
        '::1 localhost ip6-localhost',
        'not-an-address example.com',
        '10.0.0.6 billing.internal',
      ].join('\r\n'),
    );
    expect(table.get('billing.internal')).toEqual([
      { address: '10.0.0.5', family: 4 },
      { address: '10.0.0.6', family: 4 },
    ]);
    expect(table.get('localhost')).toEqual([
      { address: '127.0.0.1', family: 4 },
      { address: '::1', family: 6 },
    ]);
    expect(table.has('example.com')).toBe(false);
  });
});

describe('ReceiverResolver', () => {
  let dns: DnsServer;
  let dir: string;
  const resolvers: ReceiverResolver[] = [];

  beforeAll(async () => {
    dns = await startDnsServer({
      'both.test': { a: ['93.184.216.34'], aaaa: ['2606:2800:220:1:248:1893:25c8:1946'], ttl: 60 },
      'short.test': { a: ['192.0.2.1'], ttl: 0 },
      'listed.test': { a: ['192.0.2.99'] },
    });
    dir = mkdtempSync(join(tmpdir(), 'dataplatform-resolver-'));
    writeFileSync(join(dir, 'hosts'), '10.1.2.3 listed.test only-listed.test\n');
  });
  afterEach(() => dns.release());
  afterAll(async () => {
    await dns.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A resolver asking only the test's server, with a long timeout unless the test sets one. */
  const make = (options: ResolverOptions = {}) => {
    const resolver = new ReceiverResolver({
      servers: [dns.address],
      hostsFile: join(dir, 'hosts'),
      timeoutMs: 60_000,
      ...options,
    });
    resolvers.push(resolver);
    return resolver;
  };
  const asked = (name: string) => dns.queries.filter((query) => query.startsWith(`${name} `)).length;

  it('answers IP literals and localhost without asking DNS', async () => {
    const { resolve } = make({ hostsFile: null });
    expect(await resolve('192.0.2.7')).toEqual([{ address: '192.0.2.7', family: 4 }]);
    expect(await resolve('[::1]')).toEqual([{ address: '::1', family: 6 }]);
    for (const name of ['localhost', 'LOCALHOST.', 'api.localhost'])
      expect(await resolve(name)).toEqual([
        { address: '127.0.0.1', family: 4 },
        { address: '::1', family: 6 },
      ]);
    expect(dns.queries.filter((query) => query.includes('localhost'))).toEqual([]);
  });

  it('answers names of the hosts file from it, read once, before DNS', async () => {
    const { resolve } = make();
    expect(await resolve('only-listed.test')).toEqual([{ address: '10.1.2.3', family: 4 }]);
    expect(await resolve('Listed.Test')).toEqual([{ address: '10.1.2.3', family: 4 }]);
    expect(asked('listed.test') + asked('only-listed.test')).toBe(0);
    // Edits take a restart: the file was read on first use.
    writeFileSync(join(dir, 'hosts'), '10.9.9.9 only-listed.test\n');
    expect(await resolve('only-listed.test')).toEqual([{ address: '10.1.2.3', family: 4 }]);
    writeFileSync(join(dir, 'hosts'), '10.1.2.3 listed.test only-listed.test\n');
  });

  it('asks A and AAAA, IPv4 first, and keeps the answer for its TTL', async () => {
    const clock = testClock();
    const { resolve } = make({ now: clock.now });
    const both = [
      { address: '93.184.216.34', family: 4 },
      { address: '2606:2800:220:1:248:1893:25c8:1946', family: 6 },
    ];
    expect(await resolve('both.test')).toEqual(both);
    expect(dns.queries.filter((query) => query.startsWith('both.test ')).sort()).toEqual([
      'both.test A',
      'both.test AAAA',
    ]);
    clock.advance(59_000);
    expect(await resolve('both.test')).toEqual(both);
    expect(asked('both.test')).toBe(2);
    clock.advance(1_000);
    expect(await resolve('both.test')).toEqual(both);
    expect(asked('both.test')).toBe(4);
  });

  it('keeps no answer whose TTL is 0, and at most maxTtlSeconds of any other', async () => {
    const clock = testClock();
    const { resolve } = make({ now: clock.now, maxTtlSeconds: 10 });
    await resolve('short.test');
    await resolve('short.test');
    expect(asked('short.test')).toBe(4);
    const before = asked('both.test');
    await resolve('both.test');
    clock.advance(10_000);
    await resolve('both.test');
    expect(asked('both.test') - before).toBe(4);
  });

  it('remembers a name that does not exist for negativeTtlMs', async () => {
    const clock = testClock();
    const { resolve } = make({ now: clock.now, negativeTtlMs: 2000 });
    await expect(resolve('missing.test')).rejects.toMatchObject({ code: 'ENOTFOUND' });
    await expect(resolve('missing.test')).rejects.toMatchObject({ code: 'ENOTFOUND' });
    expect(asked('missing.test')).toBe(2);
    clock.advance(2000);
    await expect(resolve('missing.test')).rejects.toMatchObject({ code: 'ENOTFOUND' });
    expect(asked('missing.test')).toBe(4);
  });

  it('keeps at most maxEntries names, dropping the oldest', async () => {
    const { resolve } = make({ maxEntries: 1 });
    dns.set('first.test', { a: ['192.0.2.11'] });
    dns.set('second.test', { a: ['192.0.2.12'] });
    await resolve('first.test');
    await resolve('second.test');
    await resolve('second.test');
    await resolve('first.test');
    expect([asked('first.test'), asked('second.test')]).toEqual([4, 2]);
  });

  it('shares one query among the lookups of a name in flight', async () => {
    const resolver = make();
    dns.set('shared.test', { a: ['192.0.2.20'], hold: true });
    const lookups = [resolver.resolve('shared.test'), resolver.resolve('shared.test')];
    await dns.waitForHeld(1);
    expect(resolver.lookupsInFlight).toBe(1);
    dns.release();
    expect(await Promise.all(lookups)).toEqual([
      [{ address: '192.0.2.20', family: 4 }],
      [{ address: '192.0.2.20', family: 4 }],
    ]);
    expect(asked('shared.test')).toBe(2);
  });

  it('answers other names while slow ones are in flight', async () => {
    const resolver = make();
    const slow = Array.from({ length: 20 }, (_, i) => `slow-${i}.test`);
    for (const name of slow) dns.set(name, { a: ['192.0.2.30'], hold: true });
    dns.set('quick.test', { a: ['192.0.2.31'] });
    const pending = slow.map((name) => resolver.resolve(name));
    await dns.waitForHeld(20);
    expect(await resolver.resolve('quick.test')).toEqual([{ address: '192.0.2.31', family: 4 }]);
    // Not one of the slow lookups has been answered meanwhile.
    expect(dns.held().size).toBe(20);
    expect(resolver.lookupsInFlight).toBe(20);
    dns.release();
    expect((await Promise.all(pending)).flat()).toHaveLength(20);
  });

  it('refuses a lookup of one more name at once when maxInFlight names are being resolved', async () => {
    const resolver = make({ maxInFlight: 2 });
    dns.set('busy-1.test', { a: ['192.0.2.41'], hold: true });
    dns.set('busy-2.test', { a: ['192.0.2.42'], hold: true });
    dns.set('busy-3.test', { a: ['192.0.2.43'] });
    const pending = [resolver.resolve('busy-1.test'), resolver.resolve('busy-2.test')];
    await dns.waitForHeld(2);
    await expect(resolver.resolve('busy-3.test')).rejects.toMatchObject({ code: 'EDNSBUSY' });
    // A name already in flight is joined, and literals, localhost and the hosts file need no slot.
    const joined = resolver.resolve('busy-1.test');
    expect(await resolver.resolve('127.0.0.1')).toHaveLength(1);
    expect(await resolver.resolve('only-listed.test')).toHaveLength(1);
    dns.release();
    await Promise.all([...pending, joined]);
    expect(await resolver.resolve('busy-3.test')).toEqual([{ address: '192.0.2.43', family: 4 }]);
  });

  it('fails a lookup that outlasts timeoutMs with ETIMEOUT', async () => {
    const { resolve } = make({ timeoutMs: 50 });
    dns.set('never.test', { a: ['192.0.2.50'], hold: true });
    await expect(resolve('never.test')).rejects.toMatchObject({ code: 'ETIMEOUT' });
  });
});
