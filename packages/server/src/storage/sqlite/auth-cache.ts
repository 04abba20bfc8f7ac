import type { StoredKey } from '../types.js';

/** What a cached key needs to work out its tier at the moment of each request (a trial can end at any time). */
export interface CachedKey {
  key: Omit<StoredKey, 'tier'>;
  billing: { plan: string; trialExpiresAt: string | null; enterprise: boolean };
}

/**
 * The keys recently used for authentication, so that a request costs no database read for its key.
 * Exact because SQLite has one writer, this process: every write to keys, clusters, users or billing accounts
 * goes through this engine and empties the cache first. (The PostgreSQL engine has other writers, the other
 * instances, and keeps no such cache.)
 */
export class AuthCache {
  private readonly entries = new Map<string, CachedKey>();

  constructor(private readonly capacity = 10_000) {}

  get(keyId: string): CachedKey | undefined {
    return this.entries.get(keyId);
  }

  set(keyId: string, entry: CachedKey): void {
    // Bounded: past capacity the oldest entry goes (Map keeps insertion order).
    if (this.entries.size >= this.capacity) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(keyId, entry);
  }

  /** Forgets everything; call before any write that could change what authentication decides. */
  invalidate(): void {
    this.entries.clear();
  }
}
