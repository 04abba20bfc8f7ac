import {
  type ApiKey,
  ApiKeyCreate,
  type ApiKeyUsageEntry,
  ApiKeyUsageQuery,
  checkClusterAccess,
  checkKeyChange,
  checkKeyExpiry,
  isJsonObject,
  keyExpiresAt,
  keyNotFound,
  keyStatusAt,
} from '@dataplatform/contract';
import type { z } from 'zod';
import { generateApiKey, KEY_PREFIX } from '../auth/api-key.js';
import { ApiError } from '../http/errors.js';
import { rejectViolation, validate } from '../http/validate.js';
import type { KeyOwner, KeyRow } from '../storage/keys.js';
import type { Storage } from '../storage/types.js';
import { assertGrantable, scopesOfUser } from './key-scopes.js';

/** An API key record as the key routes answer it (API.md). */
export type ApiKeyRecord = z.output<typeof ApiKey>;

/** A key with its secret: the answer to creation and rotation, the only times the secret is shown. */
export interface KeyWithSecret {
  key: ApiKeyRecord;
  secret: string;
}

/** One page of a key's usage history. */
export interface UsagePage {
  data: z.output<typeof ApiKeyUsageEntry>[];
  total: number;
}

/**
 * The life cycle of API keys (API.md "Dashboard areas"): create, list, get, pause, resume, rotate, delete and the
 * usage history. Every operation acts for an owner, a user or one of their robots, and sees only that owner's
 * keys: another owner's key is 404 `not_found`, as if it did not exist.
 */
export class KeyService {
  constructor(
    private readonly storage: Storage,
    /** The clock; tests set it to make keys whose expiry has passed. */
    private readonly now: () => number = Date.now,
  ) {}

  /** Creates a key from an unchecked body `{ name, scopes, clusterId?, expiresIn?, expiresAt? }`. */
  async create(
    owner: KeyOwner,
    body: unknown,
    grantable = scopesOfUser(owner.userId),
  ): Promise<KeyWithSecret> {
    if (!isJsonObject(body))
      throw new ApiError('invalid_body', 'Body must be a JSON object: { "name", "scopes" }');
    return this.createChecked(owner, validate(ApiKeyCreate, body, 'body'), grantable);
  }

  /**
   * Creates a key from a checked body; the scopes must be held by the owner (`grantable`: the robot's scopes for a
   * robot's key), the cluster one the user is a member of with a role that may manage keys (403 `forbidden`).
   */
  async createChecked(
    owner: KeyOwner,
    input: z.output<typeof ApiKeyCreate>,
    grantable = scopesOfUser(owner.userId),
  ): Promise<KeyWithSecret> {
    assertGrantable(input.scopes, grantable);
    const now = this.now();
    rejectViolation(checkKeyExpiry(input, now));
    const expiresAt = keyExpiresAt(input, now);
    const membership = await this.storage.clusters.membership(owner.userId, input.clusterId ?? null);
    if (membership === null) {
      throw input.clusterId === undefined
        ? new ApiError('conflict', 'The account has no cluster to create a key in')
        : // The route's target exists; what is wrong is a name in the body (and another user's cluster looks the same).
          new ApiError(
            'validation_error',
            `Invalid body field "clusterId": no cluster ${input.clusterId} of yours`,
            {
              in: 'body',
              field: 'clusterId',
            },
          );
    }
    rejectViolation(checkClusterAccess(membership.role, 'keys'));
    const clusterId = membership.clusterId;
    const generated = generateApiKey();
    await this.storage.keys.create({
      id: generated.id,
      clusterId,
      ownerId: owner.userId,
      robotId: owner.robotId,
      name: input.name,
      scopes: input.scopes,
      secretHash: generated.hash,
      createdAt: new Date(now).toISOString(),
      expiresAt,
    });
    return { key: await this.get(owner, generated.id), secret: generated.secret };
  }

  /** Every key of the owner, newest first. */
  async list(owner: KeyOwner): Promise<{ data: ApiKeyRecord[] }> {
    const now = this.now();
    return { data: (await this.storage.keys.list(owner)).map((row) => toRecord(row, now)) };
  }

  /** One key of the owner; 404 `not_found` for any other. */
  async get(owner: KeyOwner, keyId: string): Promise<ApiKeyRecord> {
    return toRecord(await this.find(owner, keyId), this.now());
  }

  /** Stops the key from working; its usage history is kept. Pausing a paused key changes nothing. */
  async pause(owner: KeyOwner, keyId: string): Promise<ApiKeyRecord> {
    await this.findChangeable(owner, keyId, 'paused');
    await this.storage.keys.setStatus(keyId, 'paused');
    return this.get(owner, keyId);
  }

  /** Makes a paused key work again. Resuming an active key changes nothing; an expired one stays expired (409). */
  async resume(owner: KeyOwner, keyId: string): Promise<ApiKeyRecord> {
    await this.findChangeable(owner, keyId, 'resumed');
    await this.storage.keys.setStatus(keyId, 'active');
    return this.get(owner, keyId);
  }

  /**
   * Gives an active key a new secret; the old one stops working at once (every instance reads the new hash on its
   * next request). A paused or expired key cannot be rotated (409 `conflict`): resume it, or create a new one.
   */
  async rotate(owner: KeyOwner, keyId: string): Promise<KeyWithSecret> {
    await this.findChangeable(owner, keyId, 'rotated');
    const generated = generateApiKey(keyId);
    if (!(await this.storage.keys.rotate(keyId, generated.hash, new Date(this.now()).toISOString()))) {
      throw notFound(keyId);
    }
    return { key: await this.get(owner, keyId), secret: generated.secret };
  }

  /** Removes the key and its usage history for good; requests with it then answer 401 `unauthorized`. */
  async delete(owner: KeyOwner, keyId: string): Promise<{ _id: string; deleted: true }> {
    await this.find(owner, keyId);
    if (!(await this.storage.keys.delete(keyId))) throw notFound(keyId);
    return { _id: keyId, deleted: true };
  }

  /** A page of the key's usage history, newest first, from an unchecked query `{ outcome?, limit?, skip? }`. */
  async usage(owner: KeyOwner, keyId: string, query: unknown): Promise<UsagePage> {
    return this.usagePage(owner, keyId, validate(ApiKeyUsageQuery, query ?? {}, 'query'));
  }

  /** A page of the key's usage history, newest first, from a checked query. */
  async usagePage(
    owner: KeyOwner,
    keyId: string,
    { outcome, limit, skip }: z.output<typeof ApiKeyUsageQuery>,
  ): Promise<UsagePage> {
    await this.find(owner, keyId);
    const { rows, total } = await this.storage.usage.list(keyId, { outcome, limit, skip });
    return { data: rows, total };
  }

  private async find(owner: KeyOwner, keyId: string): Promise<KeyRow> {
    const row = await this.storage.keys.get(owner, keyId);
    if (!row) throw notFound(keyId);
    return row;
  }

  private async findChangeable(
    owner: KeyOwner,
    keyId: string,
    change: 'paused' | 'resumed' | 'rotated',
  ): Promise<KeyRow> {
    const row = await this.find(owner, keyId);
    rejectViolation(checkKeyChange(row, change, this.now()));
    return row;
  }
}

function notFound(keyId: string): ApiError {
  const { code, message } = keyNotFound(keyId);
  return new ApiError(code, message);
}

/** The API shape of a stored key; `expired` is derived from the expiry instant. */
function toRecord(row: KeyRow, now: number): ApiKeyRecord {
  return {
    _id: row.id,
    name: row.name,
    prefix: `${KEY_PREFIX}${row.id}`,
    scopes: row.scopes,
    status: keyStatusAt(row.status, row.expiresAt, now),
    clusterId: row.clusterId,
    createdAt: row.createdAt,
    expiresAt: row.expiresAt,
    lastUsedAt: row.lastUsedAt,
    lastRotatedAt: row.lastRotatedAt,
  };
}
