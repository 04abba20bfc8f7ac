import { describe, expect, it } from 'vitest';
import { AuthCache, type AuthChanges } from './auth-cache.js';
import type { KeyAuthRow } from './keys.js';

/** Changes heard by hand: `say()` is another instance's announcement. */
function changes(maxAgeMs = Number.POSITIVE_INFINITY) {
  let changed = () => {};
  const announced: number[] = [];
  const fake: AuthChanges & { hearing: boolean; say(): void; announced: number[] } = {
    maxAgeMs,
    hearing: true,
    watch(listener) {
      changed = listener;
    },
    async announce() {
      announced.push(Date.now());
    },
    async close() {},
    say: () => changed(),
    announced,
  };
  return fake;
}

const row = (billing: Partial<KeyAuthRow['billing']> = {}): KeyAuthRow => ({
  keyId: 'k1',
  clusterId: 'c1',
  clusterStatus: 'running',
  billingStatus: 'active',
  clusterRole: 'owner',
  scopes: ['data:read'],
  status: 'active',
  expiresAt: null,
  secretHash: Buffer.alloc(32),
  billing: { plan: 'free', trialExpiresAt: null, enterprise: false, ...billing },
});

/** A read that answers when told to, like a database read still in flight. */
function pendingRead(answer: KeyAuthRow) {
  let release = () => {};
  const gate = new Promise<void>((resolve) => (release = resolve));
  const read = async () => {
    await gate;
    return answer;
  };
  return { read, release };
}

describe('AuthCache', () => {
  it('answers the same object from memory until a write, and works out the tier above the engine', async () => {
    const cache = new AuthCache(changes());
    const first = await cache.find('k1', async () => row({ plan: 'team' }));
    expect(first?.tier).toBe('pro');
    expect(cache.cached('k1')).toBe(first);
    expect(await cache.find('k1', () => Promise.reject(new Error('no read expected')))).toBe(first);
    await cache.write(async () => {});
    expect(cache.cached('k1')).toBeUndefined();
  });

  it('announces every write to the other instances, also a write that failed', async () => {
    const heard = changes();
    const cache = new AuthCache(heard);
    await cache.write(async () => {});
    await expect(cache.write(() => Promise.reject(new Error('refused')))).rejects.toThrow('refused');
    expect(heard.announced).toHaveLength(2);
  });

  it('does not keep an answer read while a write ran, nor one read before a change was heard', async () => {
    const heard = changes();
    const cache = new AuthCache(heard);
    const duringWrite = pendingRead(row());
    const reading = cache.find('k1', duringWrite.read);
    await cache.write(async () => duringWrite.release());
    expect((await reading)?.keyId).toBe('k1');
    expect(cache.cached('k1')).toBeUndefined();

    const beforeChange = pendingRead(row());
    const again = cache.find('k1', beforeChange.read);
    heard.say();
    beforeChange.release();
    await again;
    expect(cache.cached('k1')).toBeUndefined();
  });

  it('forgets everything when another instance announces a change', async () => {
    const heard = changes();
    const cache = new AuthCache(heard);
    await cache.find('k1', async () => row());
    heard.say();
    expect(cache.cached('k1')).toBeUndefined();
  });

  it('caches nothing while changes made elsewhere go unheard', async () => {
    const heard = changes();
    heard.hearing = false;
    const cache = new AuthCache(heard);
    expect(await cache.find('k1', async () => row())).not.toBeNull();
    expect(cache.cached('k1')).toBeUndefined();
  });

  it('reads again once a running trial ends, or once an answer reaches its largest age', async () => {
    const soon = new Date(Date.now() + 40).toISOString();
    const cache = new AuthCache(changes());
    expect((await cache.find('k1', async () => row({ trialExpiresAt: soon })))?.tier).toBe('starter');
    expect(cache.cached('k1')).toBeDefined();
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(cache.cached('k1')).toBeUndefined();
    expect((await cache.find('k1', async () => row({ trialExpiresAt: soon })))?.tier).toBe('free');

    const aging = new AuthCache(changes(30));
    await aging.find('k1', async () => row());
    expect(aging.cached('k1')).toBeDefined();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(aging.cached('k1')).toBeUndefined();
  });

  it('keeps at most its capacity, the oldest entry going first', async () => {
    const cache = new AuthCache(changes(), 2);
    for (const id of ['a', 'b', 'c']) await cache.find(id, async () => ({ ...row(), keyId: id }));
    expect(cache.cached('a')).toBeUndefined();
    expect(cache.cached('b')?.keyId).toBe('b');
    expect(cache.cached('c')?.keyId).toBe('c');
  });
});
