import type {
  ApplyOptions,
  ApplyOutcome,
  CollectionRef,
  DocumentOperation,
  DocumentRow,
  DocumentStore,
  ListOptions,
  OperationResult,
  WriteResult,
} from './documents.js';
import type { IdempotencyRecordInput } from './idempotency.js';

/** Thrown inside a transaction to roll an atomic batch back at its first failed operation. */
export class BatchAbort extends Error {
  constructor(
    readonly index: number,
    readonly result: OperationResult,
  ) {
    super(`operation ${index} failed`);
  }
}

/** The result of a single-document write, from the outcome of applying it as a one-operation batch. */
export function writeResultOf(outcome: ApplyOutcome): WriteResult {
  if (outcome.ok) return outcome.results[0] as WriteResult;
  if (outcome.reason === 'idempotency_race') return outcome;
  // A single write is refused only by the check of an update (a validator on the merged document).
  return outcome.result as Extract<WriteResult, { ok: false }>;
}

/** The collections of a batch: those it inserts into (to create when missing) and those it only reads or changes. */
export function collectionsOf(operations: readonly DocumentOperation[]): {
  created: Set<string>;
  existing: Set<string>;
} {
  const created = new Set<string>();
  const existing = new Set<string>();
  for (const operation of operations) {
    if (operation.kind === 'insert') created.add(operation.collection);
    else if (operation.kind !== 'refused') existing.add(operation.collection);
  }
  for (const name of created) existing.delete(name);
  return { created, existing };
}

/**
 * The single-document writes of every engine: each is a batch of one, all or nothing, so an engine implements
 * only `apply` (and the reads) and single writes and batches can never behave differently.
 */
export abstract class SingleWritesAsBatches implements DocumentStore {
  abstract list(ref: CollectionRef, options: ListOptions): Promise<{ rows: DocumentRow[]; total: number }>;
  abstract get(ref: CollectionRef, id: string): Promise<DocumentRow | null>;
  abstract apply(
    clusterId: string,
    operations: readonly DocumentOperation[],
    options: ApplyOptions,
  ): Promise<ApplyOutcome>;

  insert(ref: CollectionRef, row: DocumentRow, idempotency?: IdempotencyRecordInput): Promise<WriteResult> {
    return this.write(ref, { kind: 'insert', collection: ref.collection, row }, idempotency);
  }

  replace(
    ref: CollectionRef,
    id: string,
    data: string,
    updatedAt: string,
    idempotency?: IdempotencyRecordInput,
  ): Promise<WriteResult> {
    return this.write(ref, { kind: 'replace', collection: ref.collection, id, data, updatedAt }, idempotency);
  }

  update(
    ref: CollectionRef,
    id: string,
    change: (data: Record<string, unknown>) => Record<string, unknown>,
    updatedAt: string,
    idempotency?: IdempotencyRecordInput,
  ): Promise<WriteResult> {
    return this.write(
      ref,
      { kind: 'update', collection: ref.collection, id, change, updatedAt },
      idempotency,
    );
  }

  delete(ref: CollectionRef, id: string, idempotency?: IdempotencyRecordInput): Promise<WriteResult> {
    return this.write(ref, { kind: 'delete', collection: ref.collection, id }, idempotency);
  }

  private async write(
    ref: CollectionRef,
    operation: DocumentOperation,
    idempotency: IdempotencyRecordInput | undefined,
  ): Promise<WriteResult> {
    return writeResultOf(await this.apply(ref.clusterId, [operation], { atomic: true, idempotency }));
  }
}
