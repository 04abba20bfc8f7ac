import type { AccountStore } from './accounts.js';
import { AuthCache } from './auth-cache.js';
import type { BillingStore } from './billing.js';
import type { ClusterStore } from './clusters.js';
import type { EngineKeyStore, KeyOwner, KeyRow, KeyStore, NewKey, StoredKey } from './keys.js';
import type { RobotStore } from './robots.js';
import type { SessionStore } from './sessions.js';
import type { EngineStorage, Storage } from './types.js';

/**
 * The storage the server talks to: the engine's stores, with the authentication cache in front of keys and every
 * write that could change an answer of `findForAuth` going through `AuthCache.write`.
 */
export function withAuthCache(engine: EngineStorage): Storage {
  const cache = new AuthCache(engine.authChanges);
  const { authChanges, keys, accounts, billing, robots, clusters, sessions, close, ...stores } = engine;
  return {
    ...stores,
    keys: new CachedKeys(keys, cache),
    // The plan sets the tier of the user's keys; a new account may take the place of one whose keys were cached.
    accounts: emptyingOn(accounts, cache, ['create', 'setPlan']),
    // A trial's end lowers the tier of the account's keys; a charge may suspend the account, credits lift it.
    // A subscription's start or end changes the plan.
    billing: emptyingOn(billing, cache, ['endTrials', 'charge', 'grantCredits', 'applySubscriptionEvent']),
    // Deleting a robot deletes its keys.
    robots: emptyingOn(robots, cache, ['create', 'delete']),
    // A key's record carries its cluster's status and its owner's role there; a deletion removes the keys.
    clusters: emptyingOn(clusters, cache, [
      'setStatus',
      'startDeletion',
      'purgeStep',
      'setRole',
      'removeMember',
      'accept',
    ]),
    // Keys do not depend on sessions, but the change streams of a session end with it: ending sessions is announced
    // as a change, on every instance, and the streams check their credentials again.
    sessions: emptyingOn(sessions, cache, ['revoke', 'revokeAll', 'completeReset']),
    onAuthChange: (listener) => cache.onChange(listener),
    async close() {
      await authChanges.close();
      await close();
    },
  };
}

/** API keys with authentication answered from the cache. */
class CachedKeys implements KeyStore {
  constructor(
    private readonly engine: EngineKeyStore,
    private readonly cache: AuthCache,
  ) {}

  cachedForAuth(keyId: string): StoredKey | undefined {
    return this.cache.cached(keyId);
  }

  findForAuth(keyId: string): Promise<StoredKey | null> {
    return this.cache.find(keyId, (id) => this.engine.readForAuth(id));
  }

  create(key: NewKey): Promise<void> {
    return this.cache.write(() => this.engine.create(key));
  }

  setStatus(keyId: string, status: 'active' | 'paused'): Promise<void> {
    return this.cache.write(() => this.engine.setStatus(keyId, status));
  }

  list(owner: KeyOwner): Promise<KeyRow[]> {
    return this.engine.list(owner);
  }

  get(owner: KeyOwner, keyId: string): Promise<KeyRow | null> {
    return this.engine.get(owner, keyId);
  }

  rotate(keyId: string, secretHash: Buffer, rotatedAt: string): Promise<boolean> {
    return this.cache.write(() => this.engine.rotate(keyId, secretHash, rotatedAt));
  }

  delete(keyId: string): Promise<boolean> {
    return this.cache.write(() => this.engine.delete(keyId));
  }
}

type Methods<T> = {
  [K in keyof T]: T[K] extends (...args: never[]) => Promise<unknown> ? K : never;
}[keyof T];

/** `store` whose methods named in `writes` run through `cache.write`; the others are the store's own. */
function emptyingOn<T extends AccountStore | BillingStore | RobotStore | ClusterStore | SessionStore>(
  store: T,
  cache: AuthCache,
  writes: readonly Methods<T>[],
): T {
  const wrapped = Object.create(store) as T;
  for (const name of writes) {
    const method = store[name] as (...args: unknown[]) => Promise<unknown>;
    Object.defineProperty(wrapped, name, {
      value: (...args: unknown[]) => cache.write(() => method.apply(store, args)),
    });
  }
  return wrapped;
}
