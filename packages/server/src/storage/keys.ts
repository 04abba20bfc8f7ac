import type { RateTier } from '@dataplatform/contract';

/** What a request authenticated by an API key may do. */
export interface KeyPrincipal {
  keyId: string;
  clusterId: string;
  clusterStatus: string;
  scopes: string[];
  status: 'active' | 'paused';
  expiresAt: string | null;
  /** The rate-limit tier of the owner's plan. */
  tier: RateTier;
}

/** A stored API key, as needed to check a presented secret. */
export interface StoredKey extends KeyPrincipal {
  secretHash: Buffer;
}

/** A new API key to store. */
export interface NewKey {
  id: string;
  clusterId: string;
  /** The user who owns the key (directly, or through the robot that owns it); the user's plan sets its tier. */
  ownerId: string;
  /** The robot that owns the key, or null for a key of the user. */
  robotId?: string | null;
  name: string;
  scopes: string[];
  secretHash: Buffer;
  createdAt: string;
  expiresAt: string | null;
}

/** Who owns keys: a user, or one of that user's robots. */
export interface KeyOwner {
  userId: string;
  /** Null: the user's own keys (not those of their robots). */
  robotId: string | null;
}

/** A stored API key as its owner sees it; `expired` is not a stored status but follows from `expiresAt`. */
export interface KeyRow {
  id: string;
  name: string;
  clusterId: string;
  scopes: string[];
  status: 'active' | 'paused';
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
  lastRotatedAt: string | null;
}

/**
 * API keys. Every write here can change what authentication decides, so engines that cache keys for
 * authentication forget them first.
 */
export interface KeyStore {
  /** The key with this id together with its cluster and the owner's tier, or null. */
  findForAuth(keyId: string): Promise<StoredKey | null>;
  /**
   * True when `findForAuth` answers the same object for a key until something that could change the answer is
   * written (an exact cache), so that a check made against that object may be remembered (auth/key-verifier.ts).
   */
  readonly stableAuthResults: boolean;
  /** What `findForAuth` would answer, when the engine holds it in its exact cache right now; no I/O, no promise. */
  cachedForAuth?(keyId: string): StoredKey | undefined;
  create(key: NewKey): Promise<void>;
  /** Pauses or resumes a key. */
  setStatus(keyId: string, status: 'active' | 'paused'): Promise<void>;
  /** The keys of an owner, newest first. */
  list(owner: KeyOwner): Promise<KeyRow[]>;
  /** The key when it belongs to this owner, else null. */
  get(owner: KeyOwner, keyId: string): Promise<KeyRow | null>;
  /** Replaces the secret's hash; the old secret stops working at once. False when the key is gone. */
  rotate(keyId: string, secretHash: Buffer, rotatedAt: string): Promise<boolean>;
  /** Removes the key and its usage history; false when it was already gone. */
  delete(keyId: string): Promise<boolean>;
}
