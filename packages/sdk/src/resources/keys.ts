import type {
  ApiKey,
  ApiKeyCreate,
  ApiKeyList,
  ApiKeyUsageEntry,
  ApiKeyWithSecret,
} from '../contract-types.js';
import type { APIPromise } from '../core/api-promise.js';
import type { PagePromise } from '../core/pagination.js';
import { APIResource } from '../core/resource.js';
import type { RequestOptions } from '../internal/request-options.js';
import { segment } from '../internal/utils.js';

/** Query of `client.keys.usage()`. */
export interface KeyUsageParams {
  /** Only `success` or only `denied` entries. */
  outcome?: 'success' | 'denied';
  /** Entries per page, 1 to 1000 (default 50). */
  limit?: number;
  skip?: number;
}

/**
 * The signed-in user's API keys, under `/api/keys` (session token only; subject to the account's IP allowlist).
 * The secret is in the answer to `create` and `rotate` only.
 * @example const { key, secret } = await client.keys.create({ name: 'CI', scopes: ['data:read'], expiresIn: '90d' });
 */
export class Keys extends APIResource {
  /** Creates a key; PermissionDeniedError `forbidden` for scopes the user does not hold. */
  create(body: ApiKeyCreate, options?: RequestOptions): APIPromise<ApiKeyWithSecret> {
    return this._client.post('/api/keys', { ...options, body });
  }

  /** Every key of the user, newest first, without secrets. */
  list(options?: RequestOptions): APIPromise<ApiKeyList> {
    return this._client.get('/api/keys', options);
  }

  /** One key; NotFoundError for a key that is not the user's. */
  get(id: string, options?: RequestOptions): APIPromise<ApiKey> {
    return this._client.get(path(id), options);
  }

  /** Stops the key from working at once (401 `key_paused`); its usage history is kept. */
  pause(id: string, options?: RequestOptions): APIPromise<ApiKey> {
    return this._client.post(`${path(id)}/pause`, options);
  }

  /** Makes a paused key work again. */
  resume(id: string, options?: RequestOptions): APIPromise<ApiKey> {
    return this._client.post(`${path(id)}/resume`, options);
  }

  /** A new secret, shown once; the old one stops working at once. ConflictError for a paused or expired key. */
  rotate(id: string, options?: RequestOptions): APIPromise<ApiKeyWithSecret> {
    return this._client.post(`${path(id)}/rotate`, options);
  }

  /** Deletes the key for good, with its usage history. */
  delete(id: string, options?: RequestOptions): APIPromise<{ _id: string; deleted: true }> {
    return this._client.delete(path(id), options);
  }

  /**
   * The key's usage history, newest first: await for a page, or `for await` for every entry.
   * @example for await (const entry of client.keys.usage(id, { outcome: 'denied' })) console.log(entry.status, entry.path);
   */
  usage(id: string, params: KeyUsageParams = {}, options?: RequestOptions): PagePromise<ApiKeyUsageEntry> {
    const { outcome, limit, skip } = params;
    return this._client.getAPIList(`${path(id)}/usage`, { outcome, limit, skip }, options);
  }
}

function path(id: string): string {
  return `/api/keys/${segment(id, 'key id')}`;
}
