import {
  checkDocumentBody,
  isJsonObject,
  type JsonObject,
  mergePatch,
  type SortKey,
} from '@dataplatform/contract';
import { monotonicFactory } from 'ulid';
import { ApiError } from '../http/errors.js';
import { rejectViolation } from '../http/validate.js';
import type { CollectionRef, Storage, WriteResult } from '../storage/types.js';
import { findReplay, type IdempotencyContext, recordInput } from './idempotency.js';

/** The answer of a document operation, as JSON text. */
export interface Answer {
  status: number;
  body: string;
  replayed: boolean;
  /** Id of the document a create stored (or stored earlier, on a replay). */
  id?: string;
}

const nextId = monotonicFactory();

/** Serializes the caller's fields without `_id`. */
function fieldsText(body: JsonObject): string {
  if (!('_id' in body)) return JSON.stringify(body);
  const { _id, ...rest } = body;
  return JSON.stringify(rest);
}

/** The document operations of the data API, over any storage engine. */
export class DocumentService {
  constructor(private readonly storage: Storage) {}

  async list(ref: CollectionRef, limit: number, skip: number, sort: SortKey[]): Promise<string> {
    const { rows, total } = await this.storage.documents.list(ref, { limit, skip, sort });
    return `{"data":[${rows.join(',')}],"total":${total},"limit":${limit},"skip":${skip}}`;
  }

  async get(ref: CollectionRef, id: string): Promise<string> {
    const doc = await this.storage.documents.get(ref, id);
    if (doc === null)
      throw new ApiError('not_found', `Document "${id}" not found in collection "${ref.collection}"`);
    return doc;
  }

  async create(ref: CollectionRef, body: unknown, idem: IdempotencyContext | null): Promise<Answer> {
    rejectViolation(checkDocumentBody(body, { allowId: true }));
    const input = body as JsonObject;
    const now = new Date().toISOString();
    const id = typeof input._id === 'string' ? input._id : nextId();
    const answer = await this.write(idem, 201, (record) =>
      this.storage.documents.insert(
        ref,
        { id, data: fieldsText(input), createdAt: now, updatedAt: now },
        record,
      ),
    );
    return { ...answer, id: answer.replayed ? (JSON.parse(answer.body) as { _id: string })._id : id };
  }

  async replace(
    ref: CollectionRef,
    id: string,
    body: unknown,
    idem: IdempotencyContext | null,
  ): Promise<Answer> {
    rejectViolation(checkDocumentBody(body, { allowId: false }));
    const now = new Date().toISOString();
    return this.write(
      idem,
      200,
      (record) => this.storage.documents.replace(ref, id, JSON.stringify(body), now, record),
      ref,
      id,
    );
  }

  async update(
    ref: CollectionRef,
    id: string,
    patch: unknown,
    idem: IdempotencyContext | null,
  ): Promise<Answer> {
    rejectViolation(checkDocumentBody(patch, { allowId: false }));
    const now = new Date().toISOString();
    const change = (data: JsonObject) => {
      const next = mergePatch(data, patch);
      return isJsonObject(next) ? next : {};
    };
    return this.write(
      idem,
      200,
      (record) => this.storage.documents.update(ref, id, change, now, record),
      ref,
      id,
    );
  }

  async delete(ref: CollectionRef, id: string, idem: IdempotencyContext | null): Promise<Answer> {
    return this.write(idem, 200, (record) => this.storage.documents.delete(ref, id, record), ref, id);
  }

  /** Replays an earlier answer of the same Idempotency-Key, or performs the write and records its answer with it. */
  private async write(
    idem: IdempotencyContext | null,
    status: number,
    perform: (record: ReturnType<typeof recordInput> | undefined) => Promise<WriteResult>,
    ref?: CollectionRef,
    id?: string,
  ): Promise<Answer> {
    if (idem) {
      const earlier = await findReplay(this.storage, idem);
      if (earlier) return { status: earlier.status, body: earlier.body, replayed: true };
    }
    const result = await perform(idem ? recordInput(idem, status) : undefined);
    if (result.ok) return { status, body: result.body, replayed: false };
    switch (result.reason) {
      case 'not_found':
        throw new ApiError('not_found', `Document "${id}" not found in collection "${ref?.collection}"`);
      case 'conflict':
        throw new ApiError('conflict', 'A document with this _id already exists in the collection');
      case 'idempotency_race': {
        // Another request with the same key committed first: answer as it did.
        const earlier = await findReplay(this.storage, idem!);
        if (!earlier) throw new ApiError('conflict', 'A request with this Idempotency-Key is in progress');
        return { status: earlier.status, body: earlier.body, replayed: true };
      }
    }
  }
}
