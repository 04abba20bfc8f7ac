import type { StoredKey } from '../storage/keys.js';
import type { Storage } from '../storage/types.js';
import { apiKeyMatches, keyIdOf, parseApiKey, sameKey } from './api-key.js';

interface Verified {
  /** The stored key the secret was checked against: the check holds for as long as storage returns this object. */
  stored: StoredKey;
  secret: string;
}

/**
 * Finds the stored key a presented API key names and checks its secret against the stored hash in constant time.
 *
 * Storage keeps the keys used for authentication in an exact cache (`storage/auth-cache.ts`), so the answer of the
 * last successful check is remembered: the same secret presented again for the same cached key is accepted by `recall`
 * after a constant-time comparison in memory, without the checksum, the hash, a native call or a promise. Any
 * write to keys empties the storage's cache, so the next request gets a new object and is checked in full again.
 */
export class KeyVerifier {
  private readonly verified = new Map<string, Verified>();

  constructor(
    private readonly storage: Storage,
    private readonly capacity = 10_000,
  ) {}

  /**
   * The stored key, when `presented` is the secret last verified for it and storage still holds that same record
   * in its cache: a constant-time comparison in memory, synchronous. Undefined otherwise: call `verify`.
   */
  recall(presented: string): StoredKey | undefined {
    const keyId = keyIdOf(presented);
    if (keyId === null) return undefined;
    const memo = this.verified.get(keyId);
    if (memo === undefined || !sameKey(memo.secret, presented)) return undefined;
    if (this.storage.keys.cachedForAuth(keyId) === memo.stored) return memo.stored;
    // The key changed (rotated, paused, deleted…) or left the cache: forget the secret until it is verified again.
    this.verified.delete(keyId);
    return undefined;
  }

  /** The stored key when `presented` is a key whose secret matches, else null. */
  async verify(presented: string): Promise<StoredKey | null> {
    // The checksum refuses mistyped and made-up keys before they cost a database read.
    const keyId = parseApiKey(presented);
    const stored = keyId === null ? null : await this.storage.keys.findForAuth(keyId);
    if (!stored || !apiKeyMatches(presented, stored.secretHash)) return null;
    this.remember(keyId!, { stored, secret: presented });
    return stored;
  }

  private remember(keyId: string, verified: Verified): void {
    // Bounded: past capacity the oldest entry goes (Map keeps insertion order).
    if (this.verified.size >= this.capacity && !this.verified.has(keyId)) {
      this.verified.delete(this.verified.keys().next().value!);
    }
    this.verified.set(keyId, verified);
  }
}
