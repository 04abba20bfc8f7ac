import type { DeletedResponse, StoredDocument } from '../contract-types.js';
import type { APIErrorCode } from '../core/error.js';
import type { RequestOptions } from '../internal/request-options.js';
import type { AnyDocument, DocumentInput, MergePatch } from './data.js';

/**
 * One operation of `client.data.batch()`: `update` replaces the document (as PUT), `patch` merges (as PATCH).
 * @example { op: 'patch', collection: 'orders', id, data: { status: 'paid' } }
 */
export type BatchOperation<T extends object = AnyDocument> =
  | { op: 'insert'; collection: string; id?: string; data: DocumentInput<T> }
  | { op: 'get'; collection: string; id: string }
  | { op: 'update'; collection: string; id: string; data: T; ifMatch?: string }
  | { op: 'patch'; collection: string; id: string; data: MergePatch<T>; ifMatch?: string }
  | { op: 'delete'; collection: string; id: string; ifMatch?: string };

/** Why one operation of a batch failed: what its single-document route would have answered. */
export interface BatchError {
  error: string;
  code: APIErrorCode;
  details?: unknown;
}

/** The result of one operation: `data` when it succeeded, `error` when it failed; `status` as its own route's. */
export type BatchResult<D = StoredDocument> =
  | { index: number; status: number; data: D; error?: undefined }
  | { index: number; status: number; data?: undefined; error: BatchError };

/** What an operation answers with: the stored document (typed by an insert's or update's data), or a deletion. */
export type BatchData<O> = O extends { op: 'delete' }
  ? DeletedResponse
  : O extends { op: 'insert' | 'update'; data: infer D extends object }
    ? StoredDocument<D>
    : StoredDocument;

/** The answer of a batch: one result per operation, in order, each typed by its operation's kind. */
export interface BatchResponse<Ops extends readonly BatchOperation<object>[] = BatchOperation[]> {
  results: { -readonly [K in keyof Ops]: BatchResult<BatchData<Ops[K]>> };
  transaction: boolean;
}

/** Options of `client.data.batch()`. */
export interface BatchOptions extends RequestOptions {
  /** All or nothing: the first failure keeps nothing and rejects with a ConflictError `transaction_aborted`. */
  transaction?: boolean;
}
