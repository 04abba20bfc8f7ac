import type { JsonObject, SortKey } from '@dataplatform/contract';
import { documentText, storedText } from '../document-text.js';
import { ApiError } from '../http/errors.js';
import { rejectViolation } from '../http/validate.js';
import { writeResultOf } from '../storage/batch.js';
import type { CollectionRef, DocumentOperation, WriteResult } from '../storage/documents.js';
import type { Storage } from '../storage/types.js';
import {
  deleteOperation,
  failureError,
  fieldsOf,
  insertOperation,
  patchOperation,
  replaceOperation,
} from './document-operations.js';
import {
  type Answer,
  type IdempotencyContext,
  recordInput,
  replayAfterRace,
  replayOf,
} from './idempotency.js';
import type { SchemaGuards } from './schema-guards.js';

export type { Answer } from './idempotency.js';

/**
 * The document operations of the data API, over any storage engine. Bodies come checked by the document rules
 * (`checkDocumentBody`, applied by the route from the contract).
 */
export class DocumentService {
  constructor(
    private readonly storage: Storage,
    private readonly guards: SchemaGuards,
  ) {}

  /** Refuses a document that does not match the collection's strict validator: 400 `schema_violation`. */
  private async checkSchema(ref: CollectionRef, fields: JsonObject): Promise<void> {
    const guard = await this.guards.of(ref.clusterId, ref.collection);
    if (guard) rejectViolation(guard(fields));
  }

  async list(ref: CollectionRef, limit: number, skip: number, sort: SortKey[]): Promise<string> {
    const { rows, total } = await this.storage.documents.list(ref, { limit, skip, sort });
    return `{"data":[${rows.map(documentText).join(',')}],"total":${total},"limit":${limit},"skip":${skip}}`;
  }

  async get(ref: CollectionRef, id: string): Promise<string> {
    const row = await this.storage.documents.get(ref, id);
    if (row === null) throw failureError('not_found', ref.collection, id);
    return documentText(row);
  }

  async create(ref: CollectionRef, body: JsonObject, idem: IdempotencyContext | null): Promise<Answer> {
    await this.checkSchema(ref, fieldsOf(body));
    const { row } = insertOperation(ref.collection, body, new Date().toISOString());
    const answer = await this.write(
      idem,
      201,
      (record) => this.storage.documents.insert(ref, row, record),
      ref,
      row.id,
    );
    return { ...answer, id: answer.replayed ? (JSON.parse(answer.body) as { _id: string })._id : row.id };
  }

  async replace(
    ref: CollectionRef,
    id: string,
    body: JsonObject,
    idem: IdempotencyContext | null,
    ifMatch?: string,
  ): Promise<Answer> {
    await this.checkSchema(ref, body);
    const now = new Date().toISOString();
    return this.applyOne(
      ref,
      id,
      replaceOperation(ref.collection, id, JSON.stringify(body), now, ifMatch),
      idem,
    );
  }

  async update(
    ref: CollectionRef,
    id: string,
    patch: JsonObject,
    idem: IdempotencyContext | null,
    ifMatch?: string,
  ): Promise<Answer> {
    const guard = await this.guards.of(ref.clusterId, ref.collection);
    const now = new Date().toISOString();
    return this.applyOne(ref, id, patchOperation(ref.collection, id, patch, now, guard, ifMatch), idem);
  }

  async delete(
    ref: CollectionRef,
    id: string,
    idem: IdempotencyContext | null,
    ifMatch?: string,
  ): Promise<Answer> {
    return this.applyOne(ref, id, deleteOperation(ref.collection, id, ifMatch), idem);
  }

  /** A write of one existing document (PUT, PATCH, DELETE), as a batch of one with its Idempotency-Key's record. */
  private applyOne(
    ref: CollectionRef,
    id: string,
    operation: DocumentOperation,
    idem: IdempotencyContext | null,
  ): Promise<Answer> {
    return this.write(
      idem,
      200,
      async (record) =>
        writeResultOf(
          await this.storage.documents.apply(ref.clusterId, [operation], {
            atomic: true,
            idempotency: record,
          }),
        ),
      ref,
      id,
    );
  }

  /** Replays an earlier answer of the same Idempotency-Key, or performs the write and records its answer with it. */
  private async write(
    idem: IdempotencyContext | null,
    status: number,
    perform: (record: ReturnType<typeof recordInput> | undefined) => Promise<WriteResult>,
    ref: CollectionRef,
    id: string,
  ): Promise<Answer> {
    const earlier = idem && (await replayOf(this.storage, idem));
    if (earlier) return earlier;
    const result = await perform(idem ? recordInput(idem, status) : undefined);
    if (result.ok) return { status, body: storedText(result), replayed: false };
    if (result.reason === 'idempotency_race') return replayAfterRace(this.storage, idem!);
    if (result.reason === 'refused') {
      rejectViolation(result.violation ?? null);
      throw new ApiError('internal_error');
    }
    throw failureError(result.reason, ref.collection, id);
  }
}
