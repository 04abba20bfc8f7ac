import type { SortKey, Violation } from '@dataplatform/contract';
import type { IdempotencyRecordInput } from './idempotency.js';

/** A document as the storage keeps it: system fields as columns, the caller's fields as JSON text. */
export interface DocumentRow {
  id: string;
  /** JSON text of the caller's fields (an object, without `_id`, `_createdAt`, `_updatedAt`). */
  data: string;
  createdAt: string;
  updatedAt: string;
}

/**
 * What a successful operation left: the document as stored (inserted, read, replaced or patched), or the id of the
 * document it deleted. Storage returns rows; the answer's text is composed above it (`services/document-answers.ts`).
 */
export type Stored = { ok: true; row: DocumentRow } | { ok: true; deleted: string };

/** An operation refused before it was written: by the service, or by the `check` of an update (a validator). */
export type Refused = { ok: false; reason: 'refused'; violation?: Violation };

/** Result of a write: what it stored, or why nothing was written. */
export type WriteResult =
  | Stored
  | { ok: false; reason: 'not_found' | 'conflict' | 'precondition_failed' | 'idempotency_race' }
  | Refused;

/**
 * One operation of a batch, already validated, with ids, timestamps and JSON text made by the service.
 * `refused` stands for an operation the service refused (say, a bad body): it fails where it stands.
 * `ifMatch` (an If-Match header's value) makes a write conditional: the engine compares it with the stored
 * document's entity tag inside the write's transaction (`preconditionFails`), and a mismatch writes nothing.
 */
export type DocumentOperation =
  | { kind: 'insert'; collection: string; row: DocumentRow }
  | { kind: 'get'; collection: string; id: string; ifMatch?: string }
  | { kind: 'replace'; collection: string; id: string; data: string; updatedAt: string; ifMatch?: string }
  | {
      kind: 'update';
      collection: string;
      id: string;
      /** Synchronous and free of side effects, as for `DocumentStore.update`. */
      change: (data: Record<string, unknown>) => Record<string, unknown>;
      /**
       * Checks the changed fields (the collection's validator, synchronous): a violation refuses the operation
       * with nothing written, as any failed operation.
       */
      check?: (data: Record<string, unknown>) => Violation | null;
      updatedAt: string;
      ifMatch?: string;
    }
  | { kind: 'delete'; collection: string; id: string; ifMatch?: string }
  | { kind: 'refused'; violation?: Violation };

/** What one operation of a batch gave: what it stored, or why it failed. */
export type OperationResult =
  | Stored
  | { ok: false; reason: 'not_found' | 'conflict' | 'precondition_failed' }
  | Refused;

/** How `DocumentStore.apply` runs its operations. */
export interface ApplyOptions {
  /** All or nothing: stop at the first failed operation and keep nothing. Otherwise each stands on its own. */
  atomic: boolean;
  /** Records the answer under an Idempotency-Key in the same transaction (successful batches only). */
  idempotency?: IdempotencyRecordInput;
}

/** Result of `DocumentStore.apply`. */
export type ApplyOutcome =
  | { ok: true; results: OperationResult[] }
  | { ok: false; reason: 'aborted'; index: number; result: OperationResult }
  | { ok: false; reason: 'idempotency_race' };

/** Where a document lives: a cluster and a collection. */
export interface CollectionRef {
  clusterId: string;
  collection: string;
}

/** Options of a list read. */
export interface ListOptions {
  limit: number;
  skip: number;
  sort: readonly SortKey[];
}

/** Documents in collections. Every write is atomic together with its idempotency record and its counters. */
export interface DocumentStore {
  /** One page of documents, and the number of documents in the collection. */
  list(ref: CollectionRef, options: ListOptions): Promise<{ rows: DocumentRow[]; total: number }>;
  /** One document, or null. */
  get(ref: CollectionRef, id: string): Promise<DocumentRow | null>;
  insert(ref: CollectionRef, row: DocumentRow, idempotency?: IdempotencyRecordInput): Promise<WriteResult>;
  /** Replaces the caller's fields; keeps `_id` and `_createdAt`. */
  replace(
    ref: CollectionRef,
    id: string,
    data: string,
    updatedAt: string,
    idempotency?: IdempotencyRecordInput,
  ): Promise<WriteResult>;
  /**
   * Reads the caller's fields, passes them to `change` and stores what it returns, atomically.
   * `change` must be synchronous and free of side effects: an engine may call it again after a conflict.
   */
  update(
    ref: CollectionRef,
    id: string,
    change: (data: Record<string, unknown>) => Record<string, unknown>,
    updatedAt: string,
    idempotency?: IdempotencyRecordInput,
  ): Promise<WriteResult>;
  delete(ref: CollectionRef, id: string, idempotency?: IdempotencyRecordInput): Promise<WriteResult>;
  /**
   * Applies operations of one cluster in order, in ONE database transaction: reads see earlier writes,
   * counters move with the documents, and the idempotent answer commits with them. When `atomic`, the first
   * failure rolls everything back and is reported as `aborted`.
   */
  apply(
    clusterId: string,
    operations: readonly DocumentOperation[],
    options: ApplyOptions,
  ): Promise<ApplyOutcome>;
}
