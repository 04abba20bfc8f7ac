import type { ClusterRole, RateTier } from '@dataplatform/contract';

/** What a request authenticated by an API key may do. */
export interface KeyPrincipal {
  keyId: string;
  clusterId: string;
  clusterStatus: string;
  /**
   * Status of the billing account that pays for the cluster (its creator's): `suspended` refuses data writes with
   * 402 `payment_required`.
   */
  billingStatus: string;
  /** The role of the key's owner (the user, for a robot's key) in its cluster; null when no longer a member. */
  clusterRole: ClusterRole | null;
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
 * API keys, as the server sees them: `findForAuth` goes through the authentication cache (`auth-cache.ts`), which
 * every write here, to accounts and to robots empties, on this instance and, through the engine, on the others.
 */
export interface KeyStore {
  /** The key with this id together with its cluster and the owner's tier, or null. */
  findForAuth(keyId: string): Promise<StoredKey | null>;
  /**
   * What `findForAuth` would answer, when the cache holds it right now; no I/O, no promise. The cache answers the
   * same object until something that could change it is written, so a check made against that object may be
   * remembered for as long as this answers it (auth/key-verifier.ts).
   */
  cachedForAuth(keyId: string): StoredKey | undefined;
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

/** What authentication reads of a key, as stored: the tier is worked out from `billing` above the engines. */
export interface KeyAuthRow extends Omit<StoredKey, 'tier'> {
  billing: { plan: string; trialExpiresAt: string | null; enterprise: boolean };
}

/** API keys as an engine keeps them: reads for authentication go to the database every time. */
export interface EngineKeyStore extends Omit<KeyStore, 'findForAuth' | 'cachedForAuth'> {
  /** The key with this id, its cluster's status and its owner's plan; null when there is no such key. */
  readForAuth(keyId: string): Promise<KeyAuthRow | null>;
}
