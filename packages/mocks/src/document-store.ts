import { compareDocuments, type JsonObject, type SortKey, type StoredDocument } from '@dataplatform/contract';
import { createIdGenerator } from './ids.js';

/** A document's own fields: everything but `_id`, `_createdAt` and `_updatedAt`. */
export function ownFields(doc: JsonObject): JsonObject {
  const { _id, _createdAt, _updatedAt, ...fields } = doc;
  return fields;
}

/** Builds a stored document in the server's key order: `_id`, the caller's fields, then the two timestamps. */
function assemble(id: string, fields: JsonObject, createdAt: string, updatedAt: string): StoredDocument {
  return { _id: id, ...ownFields(fields), _createdAt: createdAt, _updatedAt: updatedAt };
}

/** A change a write made, as webhook events describe it. */
export interface DocumentChange {
  type: 'document.created' | 'document.updated' | 'document.deleted';
  collection: string;
  documentId: string;
  /** The document after the change; for a delete, as it was. */
  data: StoredDocument;
  /** For an update: the document before it. */
  previous?: StoredDocument;
}

/** The documents of every collection, keyed by collection then id. Knows nothing about HTTP. */
export class DocumentStore {
  readonly #collections = new Map<string, Map<string, StoredDocument>>();
  readonly #nextId = createIdGenerator();
  readonly #listeners: ((change: DocumentChange) => void)[] = [];

  /** Calls `listener` after every write (the webhook model captures events this way). */
  onChange(listener: (change: DocumentChange) => void): void {
    this.#listeners.push(listener);
  }

  #changed(change: DocumentChange): void {
    for (const listener of this.#listeners) listener(change);
  }

  #documents(collection: string): Map<string, StoredDocument> {
    let documents = this.#collections.get(collection);
    if (!documents) {
      documents = new Map();
      this.#collections.set(collection, documents);
    }
    return documents;
  }

  /** Forgets every document. */
  clear(): void {
    this.#collections.clear();
  }

  /** A copy of the store's contents to `restore` later; stored documents are never changed in place, so maps suffice. */
  snapshot(): Map<string, Map<string, StoredDocument>> {
    return new Map([...this.#collections].map(([name, documents]) => [name, new Map(documents)]));
  }

  /** Puts back what `snapshot` copied: every write since is undone. */
  restore(snapshot: Map<string, Map<string, StoredDocument>>): void {
    this.#collections.clear();
    for (const [name, documents] of snapshot) this.#collections.set(name, documents);
  }

  /** Every document of a collection, in `_id` order or by `sort` (ties broken by `_id`). */
  list(collection: string, sort: readonly SortKey[] = []): StoredDocument[] {
    const documents = [...(this.#collections.get(collection)?.values() ?? [])];
    return documents.sort((a, b) => compareDocuments(a, b, sort));
  }

  /** The document, or undefined. */
  get(collection: string, id: string): StoredDocument | undefined {
    return this.#collections.get(collection)?.get(id);
  }

  /**
   * Stores a new document; null when the id is taken. `fields._id` is used when present, otherwise a
   * sortable id is generated. Timestamps default to now (seeding may supply its own).
   */
  insert(
    collection: string,
    fields: JsonObject,
    timestamps?: { createdAt?: string; updatedAt?: string },
  ): StoredDocument | null {
    const documents = this.#documents(collection);
    const id = typeof fields._id === 'string' ? fields._id : this.#nextId();
    if (documents.has(id)) return null;
    const now = new Date().toISOString();
    const createdAt = timestamps?.createdAt ?? now;
    const doc = assemble(id, fields, createdAt, timestamps?.updatedAt ?? createdAt);
    documents.set(id, doc);
    this.#changed({ type: 'document.created', collection, documentId: id, data: doc });
    return doc;
  }

  /** Replaces a document's own fields, keeping `_id` and `_createdAt`; undefined when it does not exist. */
  replace(collection: string, id: string, fields: JsonObject): StoredDocument | undefined {
    const old = this.get(collection, id);
    if (!old) return undefined;
    const doc = assemble(id, fields, old._createdAt, new Date().toISOString());
    this.#documents(collection).set(id, doc);
    this.#changed({ type: 'document.updated', collection, documentId: id, data: doc, previous: old });
    return doc;
  }

  /** Forgets a collection's documents at once, without events (a drop); how many there were. */
  drop(collection: string): number {
    const count = this.#collections.get(collection)?.size ?? 0;
    this.#collections.delete(collection);
    return count;
  }

  /** Removes a document; false when it did not exist. */
  delete(collection: string, id: string): boolean {
    const old = this.get(collection, id);
    if (!old) return false;
    this.#collections.get(collection)!.delete(id);
    this.#changed({ type: 'document.deleted', collection, documentId: id, data: old });
    return true;
  }
}
