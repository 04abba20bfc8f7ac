import type { DeletedResponse, ImportFormat, Job, SqlResponse, StoredDocument } from '../contract-types.js';
import type { APIPromise } from '../core/api-promise.js';
import type { PagePromise } from '../core/pagination.js';
import { APIResource } from '../core/resource.js';
import type { RequestOptions } from '../internal/request-options.js';
import type { RequestBody } from '../internal/transport.js';
import { segment } from '../internal/utils.js';
import type { BatchOperation, BatchOptions, BatchResponse } from './batch.js';
import { type ChangeEvent, changeEvents, type SubscribeOptions } from './changes.js';
import { Collection } from './collection.js';
import { QueryBuilder, type SqlParam } from './query.js';

/**
 * Options of a write to an existing document. `ifMatch`: the `ETag` the caller read (`(await
 * client.data.get(c, id).withResponse()).response.headers.get('etag')`); the write then happens only if the document
 * is still that version, else it rejects with PreconditionFailedError and nothing is written.
 */
export interface ConditionalOptions extends RequestOptions {
  ifMatch?: string;
}

/** The call's options with `ifMatch` sent as the If-Match header. */
function conditional(options: ConditionalOptions | undefined): RequestOptions | undefined {
  if (options?.ifMatch === undefined) return options;
  const { ifMatch, ...request } = options;
  return {
    ...request,
    headers: { ...(request.headers as Record<string, string> | undefined), 'if-match': ifMatch },
  };
}

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

/** Options of `client.data.import()`. */
export interface ImportOptions extends RequestOptions {
  /** ndjson, json (an array) or csv; default: from `contentType`, else guessed by the server from the first character. */
  format?: ImportFormat;
  /** skip (default): leave bad rows out and go on; abort: stop at the first bad row. */
  onError?: 'skip' | 'abort';
  /** CSV: type numbers, true/false and empty cells (default true). */
  infer?: boolean;
  /** The id of an unfinished import to continue; send the same file again from its start. */
  resume?: string;
  /** Say the body is gzipped (the server also recognises gzip by its first bytes). */
  gzip?: boolean;
}

const CONTENT_TYPES: Record<ImportFormat, string> = {
  ndjson: 'application/x-ndjson',
  json: 'application/json',
  csv: 'text/csv',
};

/** An import may run for a long time: one attempt waits up to a day for its answer. */
const IMPORT_TIMEOUT_MS = 24 * 60 * 60 * 1000;

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

  /**
   * The collection's changes as they happen, filtered by `where` when given, for as long as the caller reads: the
   * stream is opened again after every drop and resumes after the last event, so none is missed or seen twice
   * (keep `event.id` and pass it as `since` to resume in a later process). Stop with `break` or `options.signal`.
   * @example for await (const change of client.data.subscribe<Order>('orders', { where: 'total > ?', params: [100] }))
   *   render(change.type, change.data);
   */
  subscribe<T extends object = AnyDocument>(
    collection: string,
    options: SubscribeOptions = {},
  ): AsyncGenerator<ChangeEvent<T>, void, undefined> {
    const path = `${BASE}${segment(collection, 'collection')}/changes`;
    return changeEvents<T>((stream) => this._client.getEventStream(path, stream), options);
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

  /** Replaces every field of a document (PUT); `_id` and `_createdAt` are kept. `ifMatch` makes it conditional. */
  replace<T extends object = AnyDocument>(
    collection: string,
    id: string,
    body: T,
    options?: ConditionalOptions,
  ): APIPromise<StoredDocument<T>> {
    return this._client.put(documentPath(collection, id), { ...conditional(options), body });
  }

  /**
   * Applies a JSON Merge Patch (PATCH): set fields, merge nested objects, remove fields set to `null`. `ifMatch`
   * makes it conditional.
   */
  update<T extends object = AnyDocument>(
    collection: string,
    id: string,
    patch: MergePatch<T>,
    options?: ConditionalOptions,
  ): APIPromise<StoredDocument<T>> {
    return this._client.patch(documentPath(collection, id), { ...conditional(options), body: patch });
  }

  /** Deletes a document: `{ _id, deleted: true }`. `ifMatch` makes it conditional. */
  delete(collection: string, id: string, options?: ConditionalOptions): APIPromise<DeletedResponse> {
    return this._client.delete(documentPath(collection, id), conditional(options));
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

  /**
   * Streams a file of documents into a collection as an import job (NDJSON, a JSON array or CSV; gzip
   * accepted) and resolves with the finished job: its status, counts and the first bad rows with their lines.
   * A stream is sent once (never retried): resume an import that broke off with `{ resume: job._id }`.
   * @example const job = await client.data.import('orders', fs.createReadStream('orders.ndjson'), { onError: 'abort' });
   */
  import(collection: string, body: RequestBody, options: ImportOptions = {}): APIPromise<Job> {
    const { format, onError, infer, resume, gzip, ...request } = options;
    const headers: Record<string, string> = {
      'content-type': format ? CONTENT_TYPES[format] : 'application/octet-stream',
    };
    if (gzip) headers['content-encoding'] = 'gzip';
    return this._client.post(`${BASE}${segment(collection, 'collection')}/import`, {
      timeout: IMPORT_TIMEOUT_MS,
      ...request,
      headers: { ...headers, ...(request.headers as Record<string, string> | undefined) },
      query: { format, onError, infer, resume },
      rawBody: body,
    });
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
