import type { StoredKey } from '../keys.js';

/**
 * A cached key: the answer of `findForAuth`, and until when its tier holds (the end of a trial, else forever).
 * The same object is answered until then, which lets a verified secret be remembered (auth/key-verifier.ts).
 */
export interface CachedKey {
  key: StoredKey;
  tierUntil: number;
}

/**
 * The keys recently used for authentication, so that a request costs no database read for its key.
 * Exact because SQLite has one writer, this process: every write to keys, robots, clusters, users or billing
 * accounts goes through this engine and empties the cache first. (Usage history and `lastUsedAt` are written too,
 * but authentication reads neither. The PostgreSQL engine has other writers, the other instances, and keeps no
 * such cache.)
 */
export class AuthCache {
  private readonly entries = new Map<string, CachedKey>();

  constructor(private readonly capacity = 10_000) {}

  get(keyId: string): CachedKey | undefined {
    return this.entries.get(keyId);
  }

  set(keyId: string, entry: CachedKey): void {
    // Bounded: past capacity the oldest entry goes (Map keeps insertion order).
    if (this.entries.size >= this.capacity && !this.entries.has(keyId)) {
      this.entries.delete(this.entries.keys().next().value!);
    }
    this.entries.set(keyId, entry);
  }

  /** Forgets everything; call before any write that could change what authentication decides. */
  invalidate(): void {
    this.entries.clear();
  }
}
