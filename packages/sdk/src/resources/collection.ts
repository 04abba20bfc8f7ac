import type { DeletedResponse, StoredDocument } from '../contract-types.js';
import type { APIPromise } from '../core/api-promise.js';
import type { PagePromise } from '../core/pagination.js';
import type { RequestOptions } from '../internal/request-options.js';
import type { ConditionalOptions, Data, DocumentInput, ListParams, MergePatch } from './data.js';

/**
 * One collection with its document type fixed; the same calls as `client.data` without the collection argument.
 * @example const orders = client.data.collection<Order>('orders'); for await (const o of orders.list()) …
 */
export class Collection<T extends object> {
  /** The collection name. */
  readonly name: string;
  readonly #data: Data;

  constructor(data: Data, name: string) {
    this.#data = data;
    this.name = name;
  }

  /** Lists the collection: await for the first page, or `for await` for every document. */
  list(params?: ListParams, options?: RequestOptions): PagePromise<StoredDocument<T>> {
    return this.#data.list<T>(this.name, params, options);
  }

  /** Every document of the collection, page after page. */
  iterate(params?: ListParams, options?: RequestOptions): AsyncIterable<StoredDocument<T>> {
    return this.#data.iterate<T>(this.name, params, options);
  }

  /** Fetches one document. */
  get(id: string, options?: RequestOptions): APIPromise<StoredDocument<T>> {
    return this.#data.get<T>(this.name, id, options);
  }

  /** Stores a new document. */
  create(body: DocumentInput<T>, options?: RequestOptions): APIPromise<StoredDocument<T>> {
    return this.#data.create<T>(this.name, body, options);
  }

  /** Replaces every field of a document. */
  replace(id: string, body: T, options?: ConditionalOptions): APIPromise<StoredDocument<T>> {
    return this.#data.replace<T>(this.name, id, body, options);
  }

  /** Applies a JSON Merge Patch to a document. */
  update(id: string, patch: MergePatch<T>, options?: ConditionalOptions): APIPromise<StoredDocument<T>> {
    return this.#data.update<T>(this.name, id, patch, options);
  }

  /** Deletes a document. */
  delete(id: string, options?: ConditionalOptions): APIPromise<DeletedResponse> {
    return this.#data.delete(this.name, id, options);
  }
}
