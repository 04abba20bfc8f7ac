import type { DeletedResponse, SqlResponse, StoredDocument } from '@dataplatform/contract';
import type { APIPromise } from '../core/api-promise.js';
import type { PagePromise } from '../core/pagination.js';
import { APIResource } from '../core/resource.js';
import type { RequestOptions } from '../internal/request-options.js';
import { segment } from '../internal/utils.js';
import type { BatchOperation, BatchOptions, BatchResponse } from './batch.js';
import { Collection } from './collection.js';
import { QueryBuilder, type SqlParam } from './query.js';

/** Query of a list call. */
export interface ListParams {
  /** Page size, 1 to 1000 (server default 50). */
  limit?: number;
  /** Number of documents to skip before the first page. */
  skip?: number;
  /** Field or dotted path, `-` for descending, several comma-separated: `-_createdAt,name`. */
  sort?: string;
}

/** A document body for create: the caller's fields and, optionally, the `_id` to use. */
export type DocumentInput<T extends object> = T & { _id?: string };

/** A JSON Merge Patch (RFC 7396) of `T`: fields to set, nested objects to merge, `null` to remove. */
export type MergePatch<T> = {
  [K in keyof T]?:
    | (T[K] extends readonly unknown[] ? T[K] : T[K] extends object ? MergePatch<T[K]> : T[K])
    | null;
};

/** Any document shape; used when the caller names no type. */
export type AnyDocument = Record<string, unknown>;

const BASE = '/api/v1/data/';

/**
 * Documents in collections, under `/api/v1/data/{collection}`.
 * @example const order = await client.data.create<Order>('orders', { total: 42 });
 */
export class Data extends APIResource {
  /** Lists a collection: await for the first page, or `for await` for every document of every page. */
  list<T extends object = AnyDocument>(
    collection: string,
    params: ListParams = {},
    options?: RequestOptions,
  ): PagePromise<StoredDocument<T>> {
    const { limit, skip, sort } = params;
    return this._client.getAPIList(BASE + segment(collection, 'collection'), { limit, skip, sort }, options);
  }

  /** Every document of a collection, page after page: `for await (const doc of client.data.iterate('orders'))`. */
  iterate<T extends object = AnyDocument>(
    collection: string,
    params?: ListParams,
    options?: RequestOptions,
  ): AsyncIterable<StoredDocument<T>> {
    return this.list<T>(collection, params, options);
  }

  /** Fetches one document; NotFoundError when it does not exist. */
  get<T extends object = AnyDocument>(
    collection: string,
    id: string,
    options?: RequestOptions,
  ): APIPromise<StoredDocument<T>> {
    return this._client.get(documentPath(collection, id), options);
  }

  /** Stores a new document (201); a supplied `_id` is kept, a duplicate one gives ConflictError. */
  create<T extends object = AnyDocument>(
    collection: string,
    body: DocumentInput<T>,
    options?: RequestOptions,
  ): APIPromise<StoredDocument<T>> {
    return this._client.post(BASE + segment(collection, 'collection'), { ...options, body });
  }

  /** Replaces every field of a document (PUT); `_id` and `_createdAt` are kept. */
  replace<T extends object = AnyDocument>(
    collection: string,
    id: string,
    body: T,
    options?: RequestOptions,
  ): APIPromise<StoredDocument<T>> {
    return this._client.put(documentPath(collection, id), { ...options, body });
  }

  /** Applies a JSON Merge Patch (PATCH): set fields, merge nested objects, remove fields set to `null`. */
  update<T extends object = AnyDocument>(
    collection: string,
    id: string,
    patch: MergePatch<T>,
    options?: RequestOptions,
  ): APIPromise<StoredDocument<T>> {
    return this._client.patch(documentPath(collection, id), { ...options, body: patch });
  }

  /** Deletes a document: `{ _id, deleted: true }`. */
  delete(collection: string, id: string, options?: RequestOptions): APIPromise<DeletedResponse> {
    return this._client.delete(documentPath(collection, id), options);
  }

  /**
   * Runs up to 1000 operations in one request, in order; each result carries the status its own route would
   * have given. With `{ transaction: true }` all or none are applied: a failure rejects with ConflictError
   * `transaction_aborted`, whose `details` name the operation (`{ index, status, code }`).
   * @example const { results } = await client.data.batch([{ op: 'get', collection: 'orders', id }], { transaction: true });
   */
  batch<Ops extends readonly BatchOperation<object>[] | []>(
    operations: Ops,
    options: BatchOptions = {},
  ): APIPromise<BatchResponse<Ops>> {
    const { transaction = false, ...request } = options;
    return this._client.post(`${BASE}batch`, { ...request, body: { operations, transaction } });
  }

  /**
   * Runs one read-only SQL statement (`POST /api/v1/data/sql`); values go in `params` for `?` or `$n`.
   * @example const { data } = await client.data.sql<Order>('SELECT * FROM orders WHERE total > ?', [100]);
   */
  sql<T extends object = AnyDocument>(
    sql: string,
    params?: readonly SqlParam[],
    options?: RequestOptions,
  ): APIPromise<SqlResponse<T>> {
    return this._client.post(`${BASE}sql`, { ...options, body: params ? { sql, params } : { sql } });
  }

  /** A query builder over the SQL helper: `await client.data.query<Order>('orders').where('total', '>', 100)`. */
  query<T extends object = AnyDocument>(collection: string, options?: RequestOptions): QueryBuilder<T> {
    return new QueryBuilder<T>(this, collection, options);
  }

  /** A handle on one collection with its document type fixed: `client.data.collection<Order>('orders').get(id)`. */
  collection<T extends object = AnyDocument>(name: string): Collection<T> {
    return new Collection<T>(this, name);
  }
}

function documentPath(collection: string, id: string): string {
  return BASE + segment(collection, 'collection') + '/' + segment(id, 'document id');
}
